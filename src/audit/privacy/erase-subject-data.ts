import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { assertMayActOn, callerOf } from '../../access/authority.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OWNERS } from '../../kernel/roles.js';
import { conflict, notFound } from '../../common/app-error.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { EventWriter } from '../../storage/event-writer.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import { SubjectErasure } from './subject-erasure.js';
import { privacyStream, SubjectDataErased, userSubject } from '../../events/privacy.events.js';

export interface ErasureResult {
  userId: string;
  erasedAt: string;
  /** Invites whose keys were erased with the user's: accepted by them or sent to their email. */
  invitesErased: number;
  /** Stored mail files addressed to them that were removed (none when mail goes out by SMTP). */
  mailFilesRemoved: number;
}

export class EraseSubjectDataInput {
  @IsUUID()
  userId!: string;
}

export class EraseSubjectData extends ProcedureCommand<EraseSubjectDataInput, ErasureResult> {}

/**
 * Erasure on request: never of a user ranked above the caller, only for a deactivated user (an
 * active account still needs its email to sign in). The request is recorded first (with the
 * invite keys it reaches), then carried out (SubjectErasure); whatever a crash in between left
 * is completed at the next start (PrivacyReconciler), or by asking again, which is refused as a
 * repeat once it has done so.
 */
@Procedure.command(EraseSubjectData, {
  name: 'eraseSubjectData',
  roles: OWNERS,
  scopes: ['privacy:erase'],
  input: EraseSubjectDataInput,
  description:
    "Erases a deactivated user's personal data (email, name, client addresses) from every event by deleting their key and the keys of their invites, and removes the stored mail addressed to them; the audit chain still verifies.",
})
export class EraseSubjectDataHandler implements ICommandHandler<EraseSubjectData> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly writer: EventWriter,
    private readonly erasure: SubjectErasure,
  ) {}

  async execute({ input, ctx }: EraseSubjectData): Promise<ErasureResult> {
    const { userId } = input;
    const user = await this.reads.collection<PrincipalDoc>('principals').get(userId);
    if (!user || user.kind !== 'user') throw notFound('No such user');
    assertMayActOn(callerOf(ctx), user, 'erase the personal data of');
    if (user.status !== 'deactivated') {
      throw conflict('Deactivate the user before erasing their personal data');
    }
    const subject = userSubject(userId);
    const invites = await this.erasure.inviteSubjects(user);
    try {
      await this.writer.append(
        privacyStream(userId),
        [SubjectDataErased({ userId, subject, invites })],
        'no_stream',
        ctx,
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) {
        await this.erasure.carryOut([user]);
        throw conflict("This user's personal data was already erased");
      }
      throw error;
    }
    // Answered only once the keys are gone: a failure here is the caller's to see, not lost.
    const reach = await this.erasure.carryOut([user]);
    return {
      userId,
      erasedAt: new Date().toISOString(),
      invitesErased: invites.length,
      mailFilesRemoved: reach.mailFiles,
    };
  }
}
