/**
 * A valid input for every procedure, used by the authorization matrix. Targets are ids that do
 * not exist, so an allowed call proves the guard let it through (it then answers 404) without
 * changing anything that matters. A procedure missing here fails the matrix test.
 */
const NOBODY = '00000000-0000-4000-8000-000000000000';

export const MATRIX_INPUTS: Record<string, unknown> = {
  health: undefined,
  viewer: undefined,
  agents: { limit: 5 },
  members: { limit: 5 },
  tokens: { limit: 5 },
  createAgent: { name: 'matrix-agent' },
  generateAgentToken: { principalId: NOBODY, tokenName: 'matrix', expiresInDays: 1 },
  createToken: { tokenName: 'matrix', scopes: ['deploy:read'], expiresInDays: 1 },
  revokeToken: { tokenId: NOBODY },
  rotateToken: { tokenId: NOBODY, overlapMinutes: 0 },
  invalidatePrincipal: { principalId: NOBODY },
  changeUserRole: { userId: NOBODY, role: 'viewer' },
  deactivateUser: { userId: NOBODY },
  accountSecurityStatus: undefined,
  updateAccountSecurityPolicy: { policy: 'optional' },
  startMfaEnrollment: { password: 'not the password' },
  confirmMfaEnrollment: { code: '000000' },
  rotateRecoveryCodes: { code: '000000' },
  disableMfa: { password: 'not the password', code: '000000' },
};
