import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { EdgeVariables } from './edge-variables.js';

/** What the edge proxies obtain certificates with. */
export interface AcmeConfig {
  /** SLIPWAY_ACME_CA: the ACME directory URL. */
  ca: string;
  /** The PEM of SLIPWAY_ACME_CA_ROOT: the roots the proxy trusts the ACME server with. */
  caRootPem: string | null;
  /** SLIPWAY_ACME_EMAIL. */
  email: string | null;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

/**
 * The CA root file read and checked once at start (certificates only, each one parsed), so a
 * wrong path or a key pasted by mistake stops the start instead of every proxy's issuance.
 */
function readRoots(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`SLIPWAY_ACME_CA_ROOT: cannot read ${path}`);
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (!blocks.length || blocks.length > 20 || /PRIVATE KEY/.test(text))
    throw new Error('SLIPWAY_ACME_CA_ROOT must be a PEM file of 1 to 20 certificates');
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new Error('SLIPWAY_ACME_CA_ROOT holds a certificate that does not parse');
    }
  }
  return `${blocks.join('\n')}\n`;
}

/** The ACME settings, or the problem that keeps them from being used. */
export function acmeConfig(vars: EdgeVariables): AcmeConfig | { problem: string } {
  try {
    return {
      ca: vars.SLIPWAY_ACME_CA,
      caRootPem: vars.SLIPWAY_ACME_CA_ROOT ? readRoots(vars.SLIPWAY_ACME_CA_ROOT) : null,
      email: vars.SLIPWAY_ACME_EMAIL ?? null,
    };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
