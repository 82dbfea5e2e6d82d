import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AlertDoc, AlertRuleDoc } from '../../../projections/alerts.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { alertStream, type AlertFacts, type AlertKind } from '../../events/alerts.events.js';
import { systemContext } from '../../kernel/request-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import {
  RESTART_LOOP_WINDOW_SECONDS,
  restartLoopFinding,
  thresholdFinding,
  unhealthyFinding,
  type Finding,
} from './alert-conditions.js';
import { alertDecider } from './alert.decider.js';
import { MetricSamples, type MetricName, type Sample } from './metric-samples.js';

/** A container's sample with the service it belongs to. */
export interface ContainerSample extends Sample {
  serviceId: string;
  container: string;
}

/** What one pass read of one server. */
export interface ServerPass {
  server: ServerDoc;
  sample: Sample;
  containers: { sample: ContainerSample; service: ServiceDoc }[];
}

/** One check of one condition, before it is decided. */
interface Check {
  condition: string;
  finding: Finding;
  facts: Omit<AlertFacts, 'alertId' | 'value' | 'threshold'>;
}

const ctx = () => systemContext('metrics');
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
/** The condition an alert id belongs to (ids are `<condition>-<incident>`). */
const conditionOf = (alertId: string) => alertId.slice(0, alertId.lastIndexOf('-'));

const numberText = (n: number | null) => (n === null ? '?' : String(Math.round(n * 100) / 100));

/**
 * After each reading of a server: the threshold rules on it and on its services' containers,
 * and the built-in checks of every container (a restart loop, a failing health check), each
 * decided on its condition's stream (raised once, escalated once, resolved once). An open alert
 * whose condition was not checked (its rule removed or disabled, its container gone) is
 * resolved. A server that could not be read is not checked: nothing is known of it.
 */
@Injectable()
export class AlertEvaluator {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly samples: MetricSamples,
    private readonly runner: DeciderRunner,
  ) {}

  async check(pass: ServerPass, now: Date): Promise<void> {
    const checks = [
      ...(await this.serverRules(pass, now)),
      ...(await this.containerRules(pass, now)),
      ...(await this.builtIns(pass, now)),
    ];
    const open = await readAll(this.reads.collection<AlertDoc>('alerts'), {
      serverId: pass.server.id,
      status: 'open',
    });
    const openConditions = new Map(open.map((a) => [conditionOf(a.id), a]));
    for (const { condition, finding, facts } of checks) {
      const known = openConditions.get(condition);
      openConditions.delete(condition);
      if (finding.level === null || (finding.level === 'ok' && !known)) continue;
      await this.decide(condition, finding.level, {
        ...facts,
        value: finding.value,
        threshold: finding.threshold,
      });
    }
    for (const [condition, alert] of openConditions) {
      await this.decide(condition, 'ok', {
        ...alert,
        detail: `${alert.detail}: no longer checked (rule removed or disabled, or container gone)`,
        value: null,
      });
    }
  }

  private async decide(
    condition: string,
    level: NonNullable<Finding['level']>,
    facts: Omit<AlertFacts, 'alertId'>,
  ): Promise<void> {
    const { kind, ruleId, serverId, serviceId, container, metric, value, threshold, detail } =
      facts;
    await this.runner.run(
      alertStream(condition),
      alertDecider,
      {
        level,
        condition,
        facts: { kind, ruleId, serverId, serviceId, container, metric, value, threshold, detail },
      },
      ctx(),
    );
  }

  private async serverRules(pass: ServerPass, now: Date): Promise<Check[]> {
    const rules = await this.rules({ serverId: pass.server.id });
    const checks: Check[] = [];
    for (const rule of rules) {
      const finding = await this.threshold(rule, pass.sample.series, now);
      checks.push({
        condition: digest(`rule:${rule.id}:${pass.sample.series}`),
        finding,
        facts: {
          kind: 'threshold',
          ruleId: rule.id,
          serverId: pass.server.id,
          serviceId: null,
          container: null,
          metric: rule.metric,
          detail: thresholdDetail(rule, finding, `server ${pass.server.name}`),
        },
      });
    }
    return checks;
  }

  private async containerRules(pass: ServerPass, now: Date): Promise<Check[]> {
    const checks: Check[] = [];
    const services = new Map(pass.containers.map((c) => [c.service.id, c.service]));
    for (const service of services.values()) {
      const rules = await this.rules({ serviceId: service.id });
      for (const rule of rules) {
        for (const { sample } of pass.containers.filter((c) => c.service.id === service.id)) {
          const finding = await this.threshold(rule, sample.series, now);
          checks.push({
            condition: digest(`rule:${rule.id}:${sample.series}`),
            finding,
            facts: {
              ...this.containerFacts(pass, sample, 'threshold'),
              ruleId: rule.id,
              metric: rule.metric,
              detail: thresholdDetail(rule, finding, where(sample, service)),
            },
          });
        }
      }
    }
    return checks;
  }

  private async builtIns(pass: ServerPass, now: Date): Promise<Check[]> {
    const checks: Check[] = [];
    const since = new Date(now.getTime() - RESTART_LOOP_WINDOW_SECONDS * 1000);
    for (const { sample, service } of pass.containers) {
      const points = (await this.samples.read(sample.series, 'raw', since)).map((s) => ({
        at: s.at,
        value: s.values.restarts ?? null,
      }));
      const loop = restartLoopFinding(points, now);
      checks.push({
        condition: digest(`restart-loop:${sample.series}`),
        finding: loop,
        facts: {
          ...this.containerFacts(pass, sample, 'restart-loop'),
          metric: 'restarts',
          detail: `${where(sample, service)} restarted ${numberText(loop.value)} times in ${RESTART_LOOP_WINDOW_SECONDS / 60} minutes`,
        },
      });
      checks.push({
        condition: digest(`unhealthy:${sample.series}`),
        finding: unhealthyFinding(sample.health),
        facts: {
          ...this.containerFacts(pass, sample, 'unhealthy'),
          metric: null,
          detail: `${where(sample, service)} is ${sample.health ?? 'without a health check'}`,
        },
      });
    }
    return checks;
  }

  private containerFacts(pass: ServerPass, sample: ContainerSample, kind: AlertKind) {
    return {
      kind,
      ruleId: null,
      serverId: pass.server.id,
      serviceId: sample.serviceId,
      container: sample.container,
    };
  }

  private async rules(filter: { serverId: string } | { serviceId: string }) {
    return readAll(this.reads.collection<AlertRuleDoc>('alert_rules'), {
      ...filter,
      enabled: true,
    });
  }

  private async threshold(rule: AlertRuleDoc, series: string, now: Date): Promise<Finding> {
    const back = rule.forSeconds + 3 * this.config.metrics.intervalSeconds;
    const read = await this.samples.read(series, 'raw', new Date(now.getTime() - back * 1000));
    const metric = rule.metric as MetricName;
    return thresholdFinding(
      rule,
      read.map((s) => ({ at: s.at, value: s.values[metric] ?? null })),
      now,
    );
  }
}

function where(sample: ContainerSample, service: ServiceDoc): string {
  return `container ${sample.container} of ${service.name} (${service.environment})`;
}

function thresholdDetail(rule: AlertRuleDoc, finding: Finding, what: string): string {
  const value = `${rule.metric} ${numberText(finding.value)}`;
  if (finding.level === 'ok' || finding.level === null) {
    return `${rule.name}: ${value} on ${what}, below ${numberText(finding.threshold)}`;
  }
  return `${rule.name}: ${value} on ${what}, ${finding.level} at ${numberText(finding.threshold)} for ${rule.forSeconds} s`;
}
