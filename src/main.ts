import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app/create-app.js';
import { firstRunHint } from './app/first-run-hint.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { keepDataPrivate } from './app/private-files.js';

/**
 * Collects what starting up left behind, once, so the server idles at the size of what it holds
 * rather than at wherever V8's next collections would take it (3 MB less, and steadier across
 * starts: see docs/operators.md, Memory). Only where `gc` is exposed (`npm start` passes --expose-gc).
 */
function releaseStartupGarbage(): void {
  const { gc } = globalThis as { gc?: () => void };
  for (let i = 0; i < 3; i++) gc?.();
}

/**
 * Where a browser on this machine reaches the server: a name it answers to. `0.0.0.0` and `::`
 * are where it listens, not names (the Docker image binds 0.0.0.0).
 */
function browsableUrl(host: string, port: number): string {
  const name =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const open = keepDataPrivate(config.dataDir);
  if (open) new Logger('Data').warn(open);
  const app = await createApp({ config });
  await app.listen(config.port, config.host);
  releaseStartupGarbage();
  const logger = new Logger('Slipway');
  // The port bound (PORT=0 picks a free one).
  const { port } = (app.getHttpServer() as { address(): { port: number } }).address();
  logger.log(`Listening on http://${config.host}:${port} (data: ${config.dataDir})`);
  // Stop accepting requests, let the projection runner finish its batch, close the stores.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: shutting down`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // After the handlers: on a store still rebuilding, the hint may wait for the read models.
  const hint = await firstRunHint(app, browsableUrl(config.host, port));
  if (hint && !stopping) logger.log(hint);
}

main().catch((error: unknown) => {
  console.error('Slipway failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
