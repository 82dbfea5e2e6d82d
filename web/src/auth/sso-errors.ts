/**
 * What the sign-in page says when a sign-in through an identity provider came back refused
 * (`/login?sso_error=<reason>`). Only these reasons are shown: the address cannot put words of
 * its own on the page.
 */
const SSO_ERRORS: Record<string, string> = {
  'unknown-provider': 'That identity provider is not configured here.',
  'provider-disabled': 'That identity provider is turned off.',
  'no-transaction':
    'The sign-in took too long or was started in another browser. Start it again below.',
  'state-mismatch': 'The answer from the identity provider did not belong to this sign-in.',
  'provider-error': 'The identity provider refused the sign-in.',
  'code-rejected': 'The identity provider did not accept the sign-in code. Start again below.',
  'id-token-invalid': 'The identity provider sent a token that did not verify.',
  'nonce-mismatch': 'The identity provider sent a token made for another sign-in.',
  'issuer-mismatch': 'The identity provider does not answer as the issuer configured here.',
  'provider-unreachable': 'The identity provider could not be reached. Try again shortly.',
  'email-unverified': 'Your identity provider has not verified your email address.',
  'domain-not-allowed': 'Your email domain may not join. Ask an owner or admin for an invite.',
  'not-invited': 'There is no account or invite for your email. Ask an owner or admin for one.',
  'no-role': 'Your groups at the identity provider give you no role here.',
  deactivated: 'This account is deactivated.',
  'subject-mismatch': 'The identity provider answered for another person.',
};

export function ssoErrorMessage(reason: string | null): string | null {
  if (!reason) return null;
  return SSO_ERRORS[reason] ?? 'The sign-in through your identity provider was refused.';
}
