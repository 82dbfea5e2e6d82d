import { Inject, Injectable } from '@nestjs/common';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { TEAM_MEMBERS_STREAM } from '../events/identity.events.js';
import { HUMANS } from '../kernel/roles.js';
import { teamMembersDecider, type HumanRole, type TeamCommand } from './team-members.decider.js';

const isHumanRole = (role: unknown): role is HumanRole =>
  (HUMANS as readonly unknown[]).includes(role);

/** A member's role and whether they are active. */
export interface MemberStanding {
  userId: string;
  role: HumanRole;
  active: boolean;
}

type MemberChange = Extract<TeamCommand, { kind: 'changeRole' | 'deactivate' | 'mapRole' }>;

/**
 * Role changes and deactivations, decided on the team stream where the owners are counted.
 * A member who signed up on their own email stream is not in that stream until their first
 * change: the read model says they exist, the team decider says what they are (a viewer).
 */
@Injectable()
export class TeamRoster {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /**
   * A member's role and whether they are active, decided on the team stream (not a read model).
   * A member the stream has not recorded joined on their own email stream and has not been
   * changed since: they still hold `lastKnownRole`, the role the caller saw them with.
   */
  async standing(userId: string, lastKnownRole: HumanRole): Promise<MemberStanding> {
    const team = await this.runner.load(TEAM_MEMBERS_STREAM, teamMembersDecider);
    const member = team.members.get(userId);
    return member
      ? { userId, role: member.role, active: member.active }
      : { userId, role: lastKnownRole, active: true };
  }

  async change(command: MemberChange, ctx: RequestContext) {
    const doc = await this.reads.collection<PrincipalDoc>('principals').get(command.userId);
    const joined = doc?.kind === 'user';
    const joinedAs = joined && isHumanRole(doc.role) ? doc.role : undefined;
    return this.runner.run(
      TEAM_MEMBERS_STREAM,
      teamMembersDecider,
      { ...command, joined, joinedAs },
      ctx,
    );
  }
}
