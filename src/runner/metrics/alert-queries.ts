import { Inject, Injectable } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { AlertDoc, AlertRuleDoc } from '../../../projections/alerts.projection.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { readAll } from '../../readstore/read-page.js';
import {
  READ_STORE,
  type DocFields,
  type Filter,
  type ReadStore,
} from '../../readstore/read-store.port.js';
import { alertTarget } from './alert-target.js';
import { AlertScopeInput, AlertsInput } from './metrics.input.js';

export type AlertRuleView = Omit<DocFields<AlertRuleDoc>, 'id'> & { ruleId: string };
export type AlertView = Omit<DocFields<AlertDoc>, 'id'> & { alertId: string };

/** The filter of a server's or a service's alerts and rules. */
const scopeFilter = (target: { serverId: string | null; serviceId: string | null }): Filter =>
  target.serviceId ? { serviceId: target.serviceId } : { serverId: target.serverId };

/** What both alert queries read with: the read store, and the server or service named. */
@Injectable()
abstract class AlertScopeQuery {
  constructor(
    @Inject(READ_STORE) protected readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  /** The server or the service the input names (see alertTarget). */
  protected target(input: AlertScopeInput) {
    return alertTarget(input, this.lookup);
  }
}

export class AlertRules extends ProcedureQuery<AlertScopeInput, { rules: AlertRuleView[] }> {}

@Procedure.read(AlertRules, {
  name: 'alertRules',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: AlertScopeInput,
  description: "A server's or a service's threshold alert rules.",
  project: { alert: 'ruleId' },
})
export class AlertRulesHandler extends AlertScopeQuery implements IQueryHandler<AlertRules> {
  async execute({ input }: AlertRules) {
    const target = await this.target(input);
    const rules = await readAll(
      this.reads.collection<AlertRuleDoc>('alert_rules'),
      scopeFilter(target),
    );
    return {
      rules: rules
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(({ id, ...rule }) => ({ ruleId: id, ...rule })),
    };
  }
}

export class Alerts extends ProcedureQuery<
  AlertsInput,
  { alerts: AlertView[]; nextCursor: string | null }
> {}

@Procedure.read(Alerts, {
  name: 'alerts',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: AlertsInput,
  description:
    "A server's or a service's alerts, newest first: open ones (default) or all, with severity, the value that raised them, and when they were raised and resolved. For a server: its own, not its services' containers'.",
  project: { alert: 'ruleId' },
})
export class AlertsHandler extends AlertScopeQuery implements IQueryHandler<Alerts> {
  async execute({ input }: Alerts) {
    const target = await this.target(input);
    const filter: Filter = {
      ...scopeFilter(target),
      ...(target.serverId ? { serviceId: null } : {}),
      ...(input.status === 'all' ? {} : { status: 'open' }),
    };
    const page = await this.reads
      .collection<AlertDoc>('alerts')
      .find(filter, { sort: { raisedAt: -1 }, limit: input.limit ?? 50, cursor: input.cursor });
    return {
      alerts: page.items.map(({ id, ...alert }) => ({ alertId: id, ...alert })),
      nextCursor: page.nextCursor,
    };
  }
}
