/**
 * The invite link's token: `<inviteId>.<secret>`. The id names the invite's stream; the secret
 * (256 bits, base64url) is checked against the keyed digest the invite recorded.
 */
const TOKEN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

export const inviteLinkToken = (inviteId: string, secret: string) => `${inviteId}.${secret}`;

export function parseInviteToken(token: unknown): { inviteId: string; secret: string } | null {
  if (typeof token !== 'string') return null;
  const match = TOKEN.exec(token);
  return match ? { inviteId: match[1], secret: match[2] } : null;
}
