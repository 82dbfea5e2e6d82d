import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { escapeControls } from '../terminal-text.js';
import type { ApiClient } from '../api-client.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveServer, resolveService } from './resolve.js';

interface AlertView {
  alertId: string;
  kind: string;
  severity: string;
  status: string;
  container: string | null;
  detail: string;
  raisedAt: string;
  resolvedAt: string | null;
}

interface RuleView {
  ruleId: string;
  name: string;
  metric: string;
  warning: number | null;
  critical: number | null;
  forSeconds: number;
  enabled: boolean;
}

interface Watched {
  server?: string;
  service?: string;
}

interface SetOptions extends Watched {
  metric: string;
  warning?: string;
  critical?: string;
  for?: string;
  rule?: string;
  disabled?: boolean;
}

/** `--server` or `--service`, resolved to the id the procedures take. */
async function watched(client: ApiClient, opts: Watched) {
  if (Boolean(opts.server) === Boolean(opts.service)) {
    throw new CliError('BAD_USAGE', 'give --server or --service (one of the two)');
  }
  return opts.server
    ? { serverId: await resolveServer(client, opts.server) }
    : { serviceId: await resolveService(client, opts.service!) };
}

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError('BAD_USAGE', `--${name} is a number`);
  return n;
}

/** Alerts and their threshold rules, on a server or on a service's containers. */
export function registerAlertCommands(program: Command): void {
  const alerts = program
    .command('alerts')
    .description('alerts raised from metrics, and the threshold rules that raise them');

  alerts
    .command('list')
    .description('open alerts of a server or a service (--all: resolved ones too)')
    .option('--server <server>', 'a server, by name or id')
    .option('--service <service>', 'a service, by name or id')
    .option('--all', 'resolved alerts too')
    .action(
      action(async (run, opts: Watched & { all?: boolean }) => {
        const client = run.client();
        const page = await client.query<{ alerts: AlertView[] }>('alerts', {
          ...(await watched(client, opts)),
          status: opts.all ? 'all' : 'open',
        });
        run.out.listing(page, page.alerts, [
          ['alert', (a) => a.alertId],
          ['status', (a) => a.status],
          ['severity', (a) => a.severity],
          ['what', (a) => escapeControls(a.detail)],
          ['raised', (a) => a.raisedAt],
          ['resolved', (a) => a.resolvedAt ?? ''],
        ]);
      }),
    );

  alerts
    .command('rules')
    .description("a server's or a service's threshold rules")
    .option('--server <server>', 'a server, by name or id')
    .option('--service <service>', 'a service, by name or id')
    .action(
      action(async (run, opts: Watched) => {
        const client = run.client();
        const list = await client.query<{ rules: RuleView[] }>(
          'alertRules',
          await watched(client, opts),
        );
        run.out.listing(list, list.rules, [
          ['rule', (r) => r.ruleId],
          ['name', (r) => (r.enabled ? r.name : `${r.name} (disabled)`)],
          ['metric', (r) => r.metric],
          ['warning', (r) => (r.warning === null ? '' : String(r.warning))],
          ['critical', (r) => (r.critical === null ? '' : String(r.critical))],
          ['for', (r) => `${r.forSeconds}s`],
        ]);
      }),
    );

  alerts
    .command('set <name>')
    .description('add or change a threshold rule (give --rule to change one)')
    .requiredOption(
      '--metric <metric>',
      'servers: cpuPercent, memoryPercent, diskPercent, dockerDiskBytes; services: cpuPercent, memoryPercent, memoryBytes',
    )
    .option('--server <server>', 'watch a server')
    .option('--service <service>', "watch each of a service's containers")
    .option('--warning <value>', 'a warning at or above this')
    .option('--critical <value>', 'critical at or above this')
    .option('--for <seconds>', 'held this long before it fires (default 300)')
    .option('--rule <ruleId>', 'the rule to change')
    .option('--disabled', 'keep the rule without checking it')
    .action(
      action(async (run, name: string, opts: SetOptions) => {
        const client = run.client();
        const done = await client.mutation<{ ruleId: string; changed: boolean }>('setAlertRule', {
          ...(opts.rule ? { ruleId: opts.rule } : {}),
          ...(await watched(client, opts)),
          name,
          metric: opts.metric,
          warning: numberOption('warning', opts.warning),
          critical: numberOption('critical', opts.critical),
          forSeconds: numberOption('for', opts.for),
          enabled: opts.disabled !== true,
        });
        run.out.ok(
          done,
          () => `Rule ${name} ${done.changed ? 'saved' : 'unchanged'}: ${done.ruleId}`,
        );
      }),
    );

  confirmedCall(alerts, {
    command: 'remove <ruleId>',
    description: 'remove a rule: an alert it holds open is resolved at the next check',
    ask: (ruleId) => `Remove alert rule ${ruleId}`,
    call: (client, ruleId) => client.mutation('removeAlertRule', { ruleId }),
    said: (_, ruleId) => `Rule ${ruleId} removed`,
  });
}
