import { call, createToken, signUp } from './identity.js';

type Auth = Record<string, string>;

/** Human ranks, lowest first: the oracle the matrix checks the service against. */
export const RANKS = ['viewer', 'operator', 'admin', 'owner'] as const;
export type Rank = (typeof RANKS)[number];

export const TARGET_KINDS = [
  'owner',
  'admin',
  'operator',
  'viewer',
  'agent of owner',
  'agent of admin',
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A principal to act on, with a token of its own; an agent ranks as its creator. */
export interface Target {
  kind: TargetKind;
  principalId: string;
  tokenId: string;
  isAgent: boolean;
  rank: Rank;
}

interface Targeting {
  takes: 'user' | 'agent' | 'any';
  /** The call hands a token value of the target to the caller. */
  handsOverValue?: true;
  input(target: Target): unknown;
}

/** Every procedure that acts on a principal or its tokens, and how it names its target. */
export const RANK_TARGETED: Record<string, Targeting> = {
  revokeToken: { takes: 'any', input: (t) => ({ tokenId: t.tokenId }) },
  rotateToken: {
    takes: 'any',
    handsOverValue: true,
    input: (t) => ({ tokenId: t.tokenId, overlapMinutes: 0 }),
  },
  invalidatePrincipal: { takes: 'any', input: (t) => ({ principalId: t.principalId }) },
  changeUserRole: { takes: 'user', input: (t) => ({ userId: t.principalId, role: 'viewer' }) },
  deactivateUser: { takes: 'user', input: (t) => ({ userId: t.principalId }) },
  eraseSubjectData: { takes: 'user', input: (t) => ({ userId: t.principalId }) },
  grantProjectRole: {
    takes: 'any',
    input: (t) => ({
      projectId: 'default',
      principalId: t.principalId,
      role: t.isAgent ? 'agent' : 'viewer',
    }),
  },
  revokeProjectRole: {
    takes: 'any',
    input: (t) => ({ projectId: 'default', principalId: t.principalId }),
  },
  generateAgentToken: {
    takes: 'agent',
    handsOverValue: true,
    input: (t) => ({ principalId: t.principalId, tokenName: 'rank', expiresInDays: 1 }),
  },
};

let made = 0;

/**
 * A fresh target of the given kind (each matrix cell may change or destroy it). A user is made
 * admin just long enough to create a token of its own, then given its final role by the owner.
 */
export async function freshTarget(
  url: string,
  owner: Auth,
  admin: Auth,
  kind: TargetKind,
): Promise<Target> {
  made += 1;
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    if (res.status !== 200) throw new Error(`target setup failed: ${JSON.stringify(res.body)}`);
    return res.body.result.data.json;
  };
  if (kind === 'agent of owner' || kind === 'agent of admin') {
    const creator = kind === 'agent of owner' ? owner : admin;
    const { principalId } = await ok(
      await call(url, 'POST', 'createAgent', creator, { name: `rank-${made}` }),
    );
    const { tokenId } = await ok(
      await call(url, 'POST', 'generateAgentToken', creator, {
        principalId,
        tokenName: 'rank',
        expiresInDays: 7,
      }),
    );
    return {
      kind,
      principalId,
      tokenId,
      isAgent: true,
      rank: kind === 'agent of owner' ? 'owner' : 'admin',
    };
  }
  const user = await signUp(url, `rank-${made}@example.com`);
  const role = (r: string) =>
    call(url, 'POST', 'changeUserRole', owner, { userId: user.userId, role: r });
  await ok(await role('admin'));
  const { tokenId } = await createToken(url, user.cookie, ['deploy:read'], 7);
  if (kind !== 'admin') await ok(await role(kind));
  return { kind, principalId: user.userId, tokenId, isAgent: false, rank: kind };
}
