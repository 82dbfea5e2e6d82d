import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import request from 'supertest';
import { ROUTE_ACCESS } from '../src/kernel/route-access.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** A controller that forgot its access declaration: it must not be reachable. */
@Controller('api/v1/forgotten')
class ForgottenController {
  @Get()
  secret() {
    return { leaked: true };
  }
}

@Module({ controllers: [ForgottenController] })
class ForgottenModule {}

describe('every REST route declares its access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ extraImports: [ForgottenModule] });
  });
  afterAll(async () => t.close());

  it('finds a declaration on every route handler of the application', () => {
    const discovery = t.app.get(DiscoveryService);
    const scanner = new MetadataScanner();
    const undeclared: string[] = [];
    let routes = 0;
    for (const wrapper of discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!type || type === ForgottenController) continue;
      for (const method of scanner.getAllMethodNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[method] as object;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        routes += 1;
        const declared =
          Reflect.getMetadata(ROUTE_ACCESS, handler) ?? Reflect.getMetadata(ROUTE_ACCESS, type);
        if (!declared) undeclared.push(`${type.name}.${method}`);
      }
    }
    expect(routes).toBeGreaterThanOrEqual(4);
    expect(undeclared).toEqual([]);
  });

  it('refuses a route that lacks a declaration, as if it did not exist', async () => {
    const res = await request(t.url).get('/api/v1/forgotten');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('leaked');
  });
});
