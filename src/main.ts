import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app/create-app.js';
import { ConfigError, loadConfig } from './config/app-config.js';

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
  const app = await createApp({ config });
  await app.listen(config.port, config.host);
  new Logger('Slipway').log(`Listening on http://${config.host}:${config.port} (data: ${config.dataDir})`);
}

main().catch((error: unknown) => {
  console.error('Slipway failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
