import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { SecretBox } from './secret-box.js';
import { loadSecretKey } from './secret-key.js';

export const SECRET_BOX = Symbol('SECRET_BOX');

export const secretBoxProvider: Provider = {
  provide: SECRET_BOX,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new SecretBox(loadSecretKey(config)),
};
