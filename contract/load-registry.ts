import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app/app.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { ProcedureRegistry, type RegisteredProcedure } from '../src/rpc/procedure-registry.js';

/** Boots the application (no HTTP listener, throwaway data) and reads its registry. */
export async function loadLiveProcedures(): Promise<RegisteredProcedure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-contract-'));
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config: { ...loadConfig({}), dataDir } }),
    { logger: false },
  );
  try {
    await app.init();
    return app.get(ProcedureRegistry).list();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
