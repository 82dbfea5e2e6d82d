import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app/app.module.js';
import { configureApp } from '../../src/app/create-app.js';
import type { Clock } from '../../src/common/clock.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { notesProjection, NotesTestModule } from './notes.module.js';

export interface TestApp {
  app: INestApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The real application on a free loopback port with a fresh data directory, plus (unless
 * asked not to) the test-only notes context.
 */
export interface TestAppOptions {
  /** Add the test-only notes context (default true). */
  notes?: boolean;
  clock?: Clock;
  extraImports?: ModuleMetadata['imports'];
  config?: Partial<AppConfig>;
  /** The address to listen on (default 127.0.0.1); the url stays on 127.0.0.1. */
  listenHost?: string;
  /** The port to listen on (default: any free one), for a `publicUrl` known beforehand. */
  listenPort?: number;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-e2e-'));
  const defaults = loadConfig({});
  // The runner stays off unless a test asks for it: fixture servers are never contacted.
  const runner = { ...defaults.runner, mode: 'off' as const, pollMs: 50 };
  // Automatic sealing and verification stay off too: tests that count events seal (and verify)
  // when they mean to.
  const audit = { ...defaults.audit, sealEveryEvents: 0, sealSeconds: 0, verifySeconds: 0 };
  // Nor the token expiry scan, whose events would land among a test's own (tests call scan()).
  const notifications = { ...defaults.notifications, tokenScanMinutes: 0 };
  const config = {
    ...defaults,
    // Nor checked (keyscan, connection checks, plans): a test that checks its own sshd sets a timeout.
    serverCheckTimeoutSeconds: 0,
    // Most suites sign up several users to act as each role: open sign-up is on for them. The
    // suites of the registration rule itself (invites.e2e.ts, first-run) start with the
    // production default, `config: { openSignup: false }`.
    openSignup: true,
    dataDir,
    port: 0,
    projectionPollMs: 50,
    runner,
    audit,
    notifications,
    ...options.config,
  };
  const notes = options.notes ?? true;
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.forRoot({
        config,
        clock: options.clock,
        extraImports: [...(notes ? [NotesTestModule] : []), ...(options.extraImports ?? [])],
        extraProjections: notes ? [notesProjection] : [],
      }),
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: ['error'],
  });
  configureApp(app, config);
  await app.listen(options.listenPort ?? 0, options.listenHost ?? '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
