/** RFC 8176 values that name a factor besides a password. */
const SECOND_FACTORS = new Set([
  'hwk',
  'swk',
  'otp',
  'sms',
  'tel',
  'fpt',
  'face',
  'iris',
  'retina',
  'vbm',
  'sc',
  'pop',
]);

/**
 * Whether an ID token's `amr` says the person proved more than one factor: `mfa` itself, or a
 * password and a second factor, or two second factors. Anything else (absent, `pwd` alone, a
 * value not in RFC 8176) does not.
 */
export function amrIsMultiFactor(amr: readonly string[]): boolean {
  if (amr.includes('mfa')) return true;
  const factors = new Set(amr.filter((m) => SECOND_FACTORS.has(m) || m === 'pwd'));
  return factors.size >= 2 && [...factors].some((m) => SECOND_FACTORS.has(m));
}

/** The `amr` claim as recorded: strings only, at most 16 of at most 32 characters. */
export function amrOf(claim: unknown): string[] {
  if (!Array.isArray(claim)) return [];
  return claim
    .filter((m): m is string => typeof m === 'string' && m.length > 0 && m.length <= 32)
    .slice(0, 16);
}
