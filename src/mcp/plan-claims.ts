import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../common/app-error.js';
import { canonicalJson } from '../common/canonical-json.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { PLAN_TTL_MS } from './plan-gates.js';

/** What a plan id vouches for. */
export interface PlanClaim {
  principalId: string;
  command: string;
  subject: Record<string, unknown>;
}

interface ClaimBody {
  v: 1;
  p: string;
  c: string;
  s: string;
  t: number;
}

const PREFIX = 'pln_';
const DOMAIN = 'slipway:mcp-plan-claim:v1\n';
export const MAX_PLAN_ID_LENGTH = 1024;

/**
 * Plan ids are small signed claims: `pln_<body>.<mac>`, the body naming the principal, the
 * command, a digest of the planned subject and when the plan was made, the MAC keyed with a key
 * derived for plan ids alone (no other output of the service is keyed with it, so no digest
 * shown anywhere else helps to forge one). Nothing is stored: the planning lane stays free of side effects, every
 * replica can check a claim, and a claim cannot be forged or moved to another principal or
 * input. It expires on its own after `PLAN_TTL_MS`.
 */
@Injectable()
export class PlanClaims {
  constructor(
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  issue(claim: PlanClaim): string {
    const body: ClaimBody = {
      v: 1,
      p: claim.principalId,
      c: claim.command,
      s: this.digest(claim.subject),
      t: this.clock.now().getTime(),
    };
    const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
    return `${PREFIX}${encoded}.${this.mac(encoded)}`;
  }

  /** Accepts the plan id for this claim, or refuses it saying why (FORBIDDEN, rule plan-first). */
  verify(planId: string, claim: PlanClaim): void {
    const body = this.authentic(planId);
    if (!body) throw refused('invalid', 'The planId was not issued by this service');
    if (body.p !== claim.principalId) {
      throw refused('foreign', 'The planId belongs to a plan made by another principal');
    }
    if (body.c !== claim.command || body.s !== this.digest(claim.subject)) {
      throw refused(
        'other-input',
        `The planId is for another input: plan this exact ${claim.command} first`,
      );
    }
    const age = this.clock.now().getTime() - body.t;
    if (age > PLAN_TTL_MS || age < -60_000) {
      throw refused('stale', 'The plan is older than 10 minutes: plan again, then run it');
    }
  }

  private authentic(planId: string): ClaimBody | null {
    if (planId.length > MAX_PLAN_ID_LENGTH || !planId.startsWith(PREFIX)) return null;
    const [encoded, mac, extra] = planId.slice(PREFIX.length).split('.');
    if (!encoded || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(encoded));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as ClaimBody;
      return body.v === 1 && typeof body.t === 'number' ? body : null;
    } catch {
      return null;
    }
  }

  private mac(encoded: string): string {
    return this.box.mac('mcp-plan-id', `${DOMAIN}${encoded}`);
  }

  private digest(subject: Record<string, unknown>): string {
    return this.box.mac('mcp-plan-id', `${DOMAIN}subject\n${canonicalJson(subject)}`);
  }
}

function refused(reason: string, message: string): AppError {
  return new AppError('FORBIDDEN', message, {
    rule: 'plan-first',
    reason,
    requiredScopes: [],
    grantedScopes: [],
  });
}
