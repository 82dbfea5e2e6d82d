import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { isDeepStrictEqual } from 'node:util';
import { badRequest } from '../common/app-error.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { drainStream, type DrainSettings } from '../events/drains.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { NotificationTargetPolicy } from '../notifications/target-policy.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { drainDecider, type DrainHeaders } from './drain.decider.js';
import { endpointProblem } from './drain-endpoint.js';
import { ConfigureDrainInput, type DrainHeaderInput } from './drain.input.js';

export interface ConfiguredDrain {
  drainId: string;
  changed: boolean;
}

export class ConfigureDrain extends ProcedureCommand<ConfigureDrainInput, ConfiguredDrain> {}

/** The headers as stored: lower-case names, each once. */
function headerMap(headers: DrainHeaderInput[]): Record<string, string> {
  const map: Record<string, string> = {};
  headers.forEach((h, i) => {
    const name = h.name.toLowerCase();
    if (name in map) {
      throw badRequest(`header ${name} is given twice`, [
        { path: `headers.${i}.name`, message: 'given twice' },
      ]);
    }
    map[name] = h.value;
  });
  return map;
}

/**
 * A drain sends the audit trail (who did what, from where) and deployment output out of
 * Slipway: only owners and admins who may read the trail and manage notifications set one.
 */
@Procedure.command(ConfigureDrain, {
  name: 'configureDrain',
  roles: ADMINS,
  scopes: ['notifications:manage', 'audit:read'],
  input: ConfigureDrainInput,
  description:
    'Adds or changes a drain that streams the audit trail and/or deployment output to the team’s own tools: syslog (RFC 5424 over TLS) or OTLP logs over HTTP. Header values are stored sealed and never returned.',
})
export class ConfigureDrainHandler implements ICommandHandler<ConfigureDrain> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async execute({ input, ctx }: ConfigureDrain): Promise<ConfiguredDrain> {
    const problem = endpointProblem(input.kind, input.endpoint);
    if (problem) {
      throw badRequest(`endpoint ${problem}`, [{ path: 'endpoint', message: problem }]);
    }
    if (input.kind !== 'otlp' && input.headers?.length) {
      throw badRequest('only OTLP drains send headers', [
        { path: 'headers', message: 'leave out for syslog' },
      ]);
    }
    await this.policy.checkUrl(input.endpoint, 'endpoint');
    const stream = drainStream(input.drainId);
    const current = (await this.runner.load(stream, drainDecider)).settings;
    const fromPosition =
      input.startAt === 'beginning' ? 0 : Number(await this.events.headPosition());
    const decision = await this.runner.run(
      stream,
      drainDecider,
      {
        kind: 'configure',
        settings: {
          drainId: input.drainId,
          displayName: input.displayName,
          kind: input.kind,
          endpoint: input.endpoint,
          caCertificate: input.caCertificate ?? null,
          sources: [...new Set(input.sources)].sort(),
          enabled: input.enabled ?? true,
        },
        headers: this.headers(input, current),
        fromPosition,
      },
      ctx,
    );
    return { drainId: input.drainId, changed: decision.events.length > 0 };
  }

  /** The same as configured: the sealed ones given again (sealing the same headers twice differs). */
  private headers(input: ConfigureDrainInput, current: DrainSettings | null): DrainHeaders {
    if (input.kind !== 'otlp') return 'none';
    if (input.headers === undefined) return 'keep';
    if (input.headers.length === 0) return 'none';
    const map = headerMap(input.headers);
    const sealed = current?.sealedHeaders;
    if (sealed && isDeepStrictEqual(JSON.parse(this.box.open(sealed)), map)) {
      return { sealed, names: current.headerNames };
    }
    return { sealed: this.box.seal(JSON.stringify(map)), names: Object.keys(map).sort() };
  }
}
