import { Global, Module } from '@nestjs/common';
import { SECRET_BOX, secretBoxProvider } from './secret-box.provider.js';

/** One SecretBox for the whole service, from one key. */
@Global()
@Module({ providers: [secretBoxProvider], exports: [SECRET_BOX] })
export class SecretsModule {}
