import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ApiContract } from '../contract/build-contract.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { MATRIX_INPUTS } from './support/matrix-inputs.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const contract = JSON.parse(
  readFileSync(new URL('../contract/api-contract.json', import.meta.url), 'utf8'),
) as ApiContract;

interface ObjectSchema {
  properties: Record<string, { items?: { $ref?: string }; $ref?: string }>;
  required?: string[];
}

/** A valid element for every nested input class the contract references. */
const NESTED: Record<string, Record<string, unknown>> = {
  EnvVarInput: { name: 'NULL_PROBE', value: 'x' },
  DeployHookRuleInput: { source: 'tag', pattern: '*', image: 'ghcr.io/acme/api:{tag}' },
  RouteInput: { domain: 'null-probe.example.com', service: 'api', port: 8080 },
  GitRefRuleInput: { kind: 'branch', pattern: 'main', action: 'deploy' },
  PreviewSettingsInput: { baseDomain: 'preview.example.com', service: 'api', port: 8080 },
  RoleRuleInput: { value: 'devs', role: 'operator' },
  DrainHeaderInput: { name: 'x-api-key', value: 'k' },
  OffsiteCopyInput: { serverId: '00000000-0000-4000-8000-000000000000', directory: '/srv' },
  RestoreTestInput: { image: 'busybox:1.37', command: ['true'], timeLimitSeconds: 60 },
};

/** One probe per field: the procedure's valid matrix input with that field (or an element's) null. */
function probes(): { procedure: string; method: 'GET' | 'POST'; path: string; input: unknown }[] {
  const out: { procedure: string; method: 'GET' | 'POST'; path: string; input: unknown }[] = [];
  for (const p of contract.procedures) {
    const schema = p.input as ObjectSchema | null;
    if (!schema) continue;
    const valid = (MATRIX_INPUTS[p.name] ?? {}) as Record<string, unknown>;
    for (const [field, fieldSchema] of Object.entries(schema.properties)) {
      out.push({
        procedure: p.name,
        method: p.method,
        path: field,
        input: { ...valid, [field]: null },
      });
      // A list of nested inputs (`items`), or one nested input.
      const ref = (fieldSchema.items?.$ref ?? fieldSchema.$ref)?.replace('#/definitions/', '');
      if (!ref) continue;
      const nested = contract.definitions[ref] as ObjectSchema;
      const single = !fieldSchema.items;
      for (const inner of Object.keys(nested.properties)) {
        const element = { ...NESTED[ref], [inner]: null };
        out.push({
          procedure: p.name,
          method: p.method,
          path: single ? `${field}.${inner}` : `${field}.0.${inner}`,
          input: { ...valid, [field]: single ? element : [element] },
        });
      }
    }
  }
  return out;
}

describe('null is refused on every field of every input (contract-driven)', () => {
  let t: TestApp;
  let owner: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a valid element for every nested input class', () => {
    expect(Object.keys(contract.definitions).sort()).toEqual(Object.keys(NESTED).sort());
  });

  it('answers 400 BAD_REQUEST naming the field for null in any field, optional ones included', async () => {
    const all = probes();
    // Optional fields are where @IsOptional let null through: make sure they are covered.
    expect(all.map((p) => `${p.procedure}.${p.path}`)).toEqual(
      expect.arrayContaining([
        'createToken.expiresInDays',
        'updateService.compose',
        'registerService.env.0.secret',
        'auditTrail.limit',
      ]),
    );
    const wrong: string[] = [];
    for (const probe of all) {
      const res = await call(t.url, probe.method, probe.procedure, owner, probe.input);
      const issues = (res.body.error?.data?.issues ?? []) as { path: string }[];
      if (
        res.status !== 400 ||
        res.body.error?.code !== 'BAD_REQUEST' ||
        !issues.some((i) => i.path === probe.path)
      ) {
        wrong.push(`${probe.procedure}.${probe.path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a null code at the login verification step (REST)', async () => {
    const res = await request(t.url)
      .post('/api/auth/login/verify')
      .send({ challenge: 'c'.repeat(40), totpCode: '123456', recoveryCode: null });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.data.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'recoveryCode' })]),
    );
  });

  it('no longer mints an already-expired token from "expiresInDays": null', async () => {
    const res = await call(t.url, 'POST', 'createToken', owner, {
      tokenName: 'null-expiry',
      scopes: ['deploy:read'],
      expiresInDays: null,
    });
    expect(res.status).toBe(400);
    const paths = (res.body.error.data.issues as { path: string }[]).map((i) => i.path);
    expect(new Set(paths)).toEqual(new Set(['expiresInDays']));
    const tokens = await call(t.url, 'GET', 'tokens', owner, { limit: 100 });
    expect(JSON.stringify(tokens.body)).not.toContain('null-expiry');
  });
});
