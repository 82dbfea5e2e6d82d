import { Inject, Injectable } from '@nestjs/common';
import type { AlertRuleDoc } from '../../projections/alerts.projection.js';
import type { ApprovalDoc } from '../../projections/approvals.projection.js';
import type { BackupDoc } from '../../projections/backups.projection.js';
import type { DeployHookDoc } from '../../projections/deploy-hooks.projection.js';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ScheduledJobDoc } from '../../projections/scheduled-jobs.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { DEFAULT_PROJECT } from '../events/projects.events.js';
import type { ProjectTarget } from '../kernel/procedure.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

type Input = Record<string, unknown> | undefined;

const idIn = (input: Input, field: string) => {
  const value = input?.[field];
  return typeof value === 'string' ? value : null;
};

/**
 * The project a call's target is in, from the read models. Null when the target is not known
 * (an unknown id: the call itself then answers NOT_FOUND, as for anyone).
 */
@Injectable()
export class ProjectOfTarget {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async of(target: ProjectTarget, input: Input): Promise<string | null> {
    if ('project' in target) return idIn(input, target.project) ?? DEFAULT_PROJECT;
    if ('server' in target) return this.server(idIn(input, target.server));
    if ('service' in target) return this.service(idIn(input, target.service));
    if ('deployment' in target) {
      return this.viaService<DeploymentDoc>('deployments', idIn(input, target.deployment));
    }
    if ('job' in target) {
      return this.viaService<ScheduledJobDoc>('scheduled_jobs', idIn(input, target.job));
    }
    if ('hook' in target)
      return this.viaService<DeployHookDoc>('deploy_hooks', idIn(input, target.hook));
    if ('alert' in target) return this.alert(input, idIn(input, target.alert));
    if ('backup' in target)
      return this.viaService<BackupDoc>('backups', idIn(input, target.backup));
    return this.viaService<ApprovalDoc>('approvals', idIn(input, target.approval));
  }

  async service(id: string | null): Promise<string | null> {
    if (!id) return null;
    return (await this.reads.collection<ServiceDoc>('services').get(id))?.projectId ?? null;
  }

  /** The watched service's or server's project, named in the call or by the rule. */
  private async alert(input: Input, ruleId: string | null): Promise<string | null> {
    const serviceId = idIn(input, 'serviceId');
    if (serviceId) return this.service(serviceId);
    const serverId = idIn(input, 'serverId');
    if (serverId) return this.server(serverId);
    if (!ruleId) return null;
    const rule = await this.reads.collection<AlertRuleDoc>('alert_rules').get(ruleId);
    if (!rule) return null;
    return rule.serviceId ? this.service(rule.serviceId) : this.server(rule.serverId);
  }

  private async server(id: string | null): Promise<string | null> {
    if (!id) return null;
    return (await this.reads.collection<ServerDoc>('servers').get(id))?.projectId ?? null;
  }

  private async viaService<D extends { serviceId: string }>(
    collection: string,
    id: string | null,
  ): Promise<string | null> {
    if (!id) return null;
    const doc = await this.reads.collection<D & { id: string }>(collection).get(id);
    return doc ? this.service(doc.serviceId) : null;
  }
}
