import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { badRequest } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { canonicalJson } from '../../common/canonical-json.js';
import type { FieldIssue } from '../../common/app-error.js';
import { unbuildableIssues, validateCompose } from '../compose.js';
import { judgingVariables, type VariableEntry } from '../compose-reading/compose-variables.js';
import type { ComposeViolation } from './compose-capabilities.js';
import { composeViolations, refusedViolations } from './compose-violations.js';

interface Reading {
  violations: ComposeViolation[];
  unbuildable: FieldIssue[];
  /** Why the definition does not validate as it is read now; null when it does. */
  invalid: FieldIssue[] | null;
}

type PolicyHolder = Pick<ServerDoc, 'name'> & { composePolicy?: ServerDoc['composePolicy'] };

/** The compose policy of one server applied to a compose definition. */
@Injectable()
export class ComposePolicyGuard {
  /**
   * What each definition asks for, by digest of its text and variables: a service's compose changes rarely
   * but is checked on every deploy, and parsing it is most of a deploy's CPU time.
   */
  private readonly found = new LRUCache<string, Reading>({ max: 500 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * What the definition, normalized with the service's variables (judgingVariables: a secret
   * stays a reference, judged as unknown), asks for that the server does not allow. One that no
   * longer validates (an old snapshot, rules grown stricter since) cannot be judged, so it is
   * refused (400) rather than allowed.
   */
  refusals(
    compose: string,
    server: PolicyHolder,
    env: readonly VariableEntry[],
  ): ComposeViolation[] {
    const reading = this.read(compose, env);
    if (reading.invalid) {
      const [first] = reading.invalid;
      throw badRequest(
        `The compose definition is not valid as it is read now (${first?.path}: ${first?.message}): it cannot be judged`,
        reading.invalid,
      );
    }
    return refusedViolations(reading.violations, server.composePolicy?.allow ?? []);
  }

  /**
   * The services that build their image (unbuildableIssues), from the same cached reading: a
   * launch asks both, and the definition is read once.
   */
  unbuildable(compose: string, env: readonly VariableEntry[]): FieldIssue[] {
    return this.read(compose, env).unbuildable;
  }

  private read(compose: string, env: readonly VariableEntry[]): Reading {
    const variables = judgingVariables(env);
    const digest = createHash('sha256')
      .update(compose)
      .update('\0')
      .update(canonicalJson([...variables]))
      .digest('base64');
    let found = this.found.get(digest);
    if (!found) {
      const result = validateCompose(compose, variables);
      // The runner's directory holds every service's .env: no container mounts it.
      found = result.ok
        ? {
            violations: composeViolations(result.summary.document, [this.config.runner.remoteDir]),
            unbuildable: unbuildableIssues(result.summary),
            invalid: null,
          }
        : { violations: [], unbuildable: [], invalid: result.issues };
      this.found.set(digest, found);
    }
    return found;
  }

  /** 400 naming each refused capability and where the definition asks for it. */
  enforce(compose: string, server: PolicyHolder, env: readonly VariableEntry[]): void {
    const refused = this.refusals(compose, server, env);
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
