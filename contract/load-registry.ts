import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { DiscoveredRoutes } from '../src/api-v1/openapi/discovered-routes.js';
import { buildApiV1Document } from '../src/api-v1/openapi/openapi.controller.js';
import { AppModule } from '../src/app/app.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { ProcedureRegistry, type RegisteredProcedure } from '../src/rpc/procedure-registry.js';

export interface LiveDeclarations {
  procedures: RegisteredProcedure[];
  /** The OpenAPI document of /api/v1, as `GET /api/v1/openapi.json` serves it. */
  openApi: Record<string, unknown>;
}

/** Boots the application (no HTTP listener, throwaway data) and reads its declarations. */
export async function loadLiveDeclarations(): Promise<LiveDeclarations> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-contract-'));
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config: { ...loadConfig({}), dataDir } }),
    { logger: false },
  );
  try {
    await app.init();
    return {
      procedures: app.get(ProcedureRegistry).list(),
      openApi: buildApiV1Document(app.get(DiscoveredRoutes)),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Boots the application (no HTTP listener, throwaway data) and reads its registry. */
export async function loadLiveProcedures(): Promise<RegisteredProcedure[]> {
  return (await loadLiveDeclarations()).procedures;
}
