import { principalOf } from '../../access/principal-of.js';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { MfaDoc } from '../../../projections/mfa.projection.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { PersonalData } from '../../audit/privacy/personal-data.js';
import { credentialByEmail } from '../credential-lookup.js';
import { actingAs, type RequestContext } from '../../access/request-context.js';
import { AppError, attributed } from '../../common/app-error.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import type { LoginInput } from '../identity.inputs.js';
import { LoginChallenges } from '../mfa/login-challenges.js';
import { PasswordHasher } from '../password-hasher.js';
import { SessionStarter, type StartedSession } from '../session-starter.js';

export type LogInOutcome =
  | { status: 'authenticated'; session: StartedSession }
  | { status: 'mfa_required'; challenge: string };

export class LogInCommand extends Command<LogInOutcome> {
  constructor(
    readonly input: LoginInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/**
 * Unknown email, deactivated user and wrong password get one answer, and each path verifies
 * one argon2 hash, so neither the answer nor its timing tells them apart.
 */
@CommandHandler(LogInCommand)
export class LogInHandler implements ICommandHandler<LogInCommand> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStarter,
    private readonly challenges: LoginChallenges,
    private readonly personal: PersonalData,
  ) {}

  async execute({ input, ctx }: LogInCommand): Promise<LogInOutcome> {
    const credential = await credentialByEmail(this.reads, this.personal, input.email);
    const ok = await this.hasher.verify(credential?.passwordHash ?? null, input.password);
    const principal = credential
      ? await this.reads.collection<PrincipalDoc>('principals').get(credential.id)
      : null;
    if (!ok || !principal || principal.status !== 'active') {
      // The audit trail names the account a failed sign-in was aimed at; the answer does not.
      throw attributed(
        new AppError('INVALID_CREDENTIALS', 'Email or password is wrong'),
        credential?.id ?? null,
      );
    }
    const actor = principalOf(principal, this.personal);
    const mfa = await this.reads.collection<MfaDoc>('mfa').get(principal.id);
    if (mfa?.status === 'enrolled') {
      return { status: 'mfa_required', challenge: this.challenges.issue(principal.id) };
    }
    return {
      status: 'authenticated',
      session: await this.sessions.start(principal.id, actingAs(ctx, actor)),
    };
  }
}
