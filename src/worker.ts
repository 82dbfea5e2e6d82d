import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app/app.module.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { keepDataPrivate } from './app/private-files.js';

/**
 * The deployment runner as a process of its own (same code, no HTTP). Run the API with
 * SLIPWAY_RUNNER=off and this worker beside it on the same SLIPWAY_DATA_DIR.
 */
async function main(): Promise<void> {
  let config;
  try {
    const loaded = loadConfig();
    // Notifications are sent by the API process: one sender, so no delivery goes out twice.
    config = {
      ...loaded,
      runner: { ...loaded.runner, mode: 'embedded' as const },
      notifications: { ...loaded.notifications, sending: false },
      // ... and verify the audit trail, so a break is noticed once, not once per process.
      audit: { ...loaded.audit, verifySeconds: 0 },
    };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const open = keepDataPrivate(config.dataDir);
  if (open) new Logger('Data').warn(open);
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config, reactionConsumer: 'worker' }),
    {
      logger: ['error', 'warn', 'log'],
    },
  );
  await app.init();
  new Logger('Worker').log(`Runner worker started (data: ${config.dataDir})`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error('Slipway worker failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
