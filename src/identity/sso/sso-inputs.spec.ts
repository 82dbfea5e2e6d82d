import { describe, expect, it } from '@jest/globals';
import { SecretBox } from '../../secrets/secret-box.js';
import { openHandoff, sealHandoff } from './cli-handoff.js';
import { issuerProblem } from './issuer-url.js';
import { localPath } from './sso-transaction.js';
import { createHash, randomBytes } from 'node:crypto';

describe('issuer addresses', () => {
  it('accepts https, and http on loopback only', () => {
    expect(issuerProblem('https://login.example.com/realms/x')).toBeNull();
    expect(issuerProblem('http://127.0.0.1:8080')).toBeNull();
    expect(issuerProblem('http://localhost:9000/idp')).toBeNull();
    expect(issuerProblem('http://login.example.com')).toMatch(/https/);
    expect(issuerProblem('http://127.0.0.1.example.com')).toMatch(/https/);
  });

  it('refuses queries, fragments, credentials and non-URLs', () => {
    expect(issuerProblem('https://idp.example/?tenant=1')).toMatch(/query/);
    expect(issuerProblem('https://idp.example/#x')).toMatch(/fragment/);
    expect(issuerProblem('https://u:p@idp.example')).toMatch(/credentials/);
    expect(issuerProblem('idp.example')).toMatch(/absolute/);
  });
});

describe('where a sign-in lands', () => {
  it('keeps local paths and turns anything else into /', () => {
    expect(localPath('/services?x=1')).toBe('/services?x=1');
    expect(localPath('//evil.example/x')).toBe('/');
    expect(localPath('/\\evil.example')).toBe('/');
    expect(localPath('https://evil.example')).toBe('/');
    expect(localPath('/a b')).toBe('/');
    expect(localPath(undefined)).toBe('/');
  });
});

describe('the CLI hand-off', () => {
  const box = new SecretBox(randomBytes(32));
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const session = { value: 'session-value', expiresAt: new Date('2030-01-01T00:00:00Z') };

  it('opens with the verifier, before it expires', () => {
    const handoff = sealHandoff(box, session, challenge, 1_000);
    expect(openHandoff(box, handoff, verifier, 2_000)).toEqual(session);
  });

  it('stays shut for another verifier, after two minutes, or when forged', () => {
    const handoff = sealHandoff(box, session, challenge, 1_000);
    expect(openHandoff(box, handoff, randomBytes(32).toString('base64url'), 2_000)).toBeNull();
    expect(openHandoff(box, handoff, verifier, 1_000 + 120_001)).toBeNull();
    expect(openHandoff(box, `${handoff.slice(0, -2)}xx`, verifier, 2_000)).toBeNull();
    expect(openHandoff(new SecretBox(randomBytes(32)), handoff, verifier, 2_000)).toBeNull();
  });
});
