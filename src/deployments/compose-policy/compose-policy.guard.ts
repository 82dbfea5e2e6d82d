import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { badRequest } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { validateCompose } from '../compose.js';
import type { ComposeViolation } from './compose-capabilities.js';
import { composeViolations, refusedViolations } from './compose-violations.js';

type PolicyHolder = Pick<ServerDoc, 'name'> & { composePolicy?: ServerDoc['composePolicy'] };

/** The compose policy of one server applied to a compose definition. */
@Injectable()
export class ComposePolicyGuard {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * What the definition asks for that the server does not allow. A definition that does not
   * parse has none here: the compose validation reports it.
   */
  refusals(compose: string, server: PolicyHolder): ComposeViolation[] {
    const result = validateCompose(compose);
    if (!result.ok) return [];
    // The runner's directory holds every service's .env: no container mounts it.
    const found = composeViolations(result.summary.document, [this.config.runner.remoteDir]);
    return refusedViolations(found, server.composePolicy?.allow ?? []);
  }

  /** 400 naming each refused capability and where the definition asks for it. */
  enforce(compose: string, server: PolicyHolder): void {
    const refused = this.refusals(compose, server);
    if (refused.length === 0) return;
    throw badRequest(describeRefusal(refused, server.name), issuesOf(refused));
  }
}

export function capabilitiesOf(refused: ComposeViolation[]): string[] {
  return [...new Set(refused.map((v) => v.capability))];
}

export function describeRefusal(refused: ComposeViolation[], serverName: string): string {
  return (
    `The compose definition asks for what server ${serverName} does not allow: ` +
    `${capabilitiesOf(refused).join(', ')} (an owner or admin can allow it: setServerComposePolicy)`
  );
}

export function issuesOf(refused: ComposeViolation[]) {
  return refused.map((v) => ({ path: v.path, message: `${v.capability}: ${v.message}` }));
}
