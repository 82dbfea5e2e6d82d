import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, Req } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Request } from 'express';
import request from 'supertest';
import { IdParams, ServiceLogStreamQuery } from '../src/api-v1/route-inputs.dto.js';
import { RouteAccess } from '../src/kernel/route-access.js';
import { EVERYONE } from '../src/kernel/roles.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** A route added by some other module: it must appear in the document without being listed. */
@Controller('api/v1/extra')
class ExtraController {
  @Get(':id')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/extra/:id',
    roles: EVERYONE,
    scopes: ['service:read'],
    summary: 'A route the document was never told about',
    params: IdParams,
    query: ServiceLogStreamQuery,
  })
  one(@Req() req: Request) {
    return { id: req.params.id };
  }
}

@Module({ controllers: [ExtraController] })
class ExtraModule {}

type Operation = {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, unknown>;
  'x-slipway-scopes'?: string[];
  'x-slipway-roles'?: string[];
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

const committed = JSON.parse(
  readFileSync(new URL('../contract/openapi.json', import.meta.url), 'utf8'),
) as Document;

describe('the OpenAPI 3.1 document of /api/v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ notes: false });
  });
  afterAll(async () => t.close());

  it('is served without credentials and is the committed contract/openapi.json', async () => {
    const res = await request(t.url).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(committed);
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(committed);
    expect(result.errors ?? null).toBeNull();
    expect(result.valid).toBe(true);
    expect(committed.openapi).toBe('3.1.0');
  });

  it('describes parameters, bounds, security and scopes as the routes enforce them', () => {
    const logs = committed.paths['/api/v1/services/{id}/logs/stream'].get;
    expect(logs.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(logs['x-slipway-scopes']).toEqual(['logs:read']);
    expect(logs.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      {
        name: 'tail',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 0, maximum: 5000 },
      },
      {
        name: 'seconds',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 3600 },
      },
      { name: 'follow', in: 'query', required: false, schema: { type: 'boolean' } },
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: expect.stringContaining('resumes after it'),
        schema: { type: 'string' },
      },
    ]);
    expect(Object.keys(logs.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', 'default']),
    );
    expect(committed.paths['/api/v1/servers/{id}/check'].post['x-slipway-roles']).toEqual([
      'owner',
      'admin',
      'operator',
      'agent',
    ]);
    expect(committed.paths['/api/v1/openapi.json'].get.security).toEqual([]);
    expect(Object.keys(committed.components.securitySchemes).sort()).toEqual(['bearer', 'session']);
    expect(committed.components.schemas.Error).toBeDefined();
  });

  it('includes every declared route, also one it was never told about', async () => {
    const extra = await startTestApp({ notes: false, extraImports: [ExtraModule] });
    try {
      const doc = (await request(extra.url).get('/api/v1/openapi.json')).body as Document;
      const op = doc.paths['/api/v1/extra/{id}'].get;
      expect(op).toMatchObject({
        operationId: 'Extra.one',
        summary: 'A route the document was never told about',
        'x-slipway-scopes': ['service:read'],
      });
      expect(op.parameters.map((p) => p.name)).toEqual(['id', 'tail', 'seconds', 'follow']);
      expect((await new Validator().validate(doc)).valid).toBe(true);
      // The rest is the committed document.
      delete doc.paths['/api/v1/extra/{id}'];
      expect(doc).toEqual(committed);
    } finally {
      await extra.close();
    }
  });
});
