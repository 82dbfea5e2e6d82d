import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { EraseSubjectDataHandler } from './erase-subject-data.js';
import { PersonalData, SUBJECT_KEY_VAULT } from '../../privacy/personal-data.js';
import { PrivacyReconciler } from './privacy-reconciler.js';
import { SubjectKeyVault } from '../../privacy/subject-key-vault.js';

/** Personal data sealing for every context that writes events (global: the writer needs it). */
@Global()
@Module({
  providers: [
    {
      provide: SUBJECT_KEY_VAULT,
      inject: [APP_CONFIG, SECRET_BOX],
      useFactory: (config: AppConfig, box: SecretBox) => new SubjectKeyVault(config.dataDir, box),
    },
    PersonalData,
    PrivacyReconciler,
    EraseSubjectDataHandler,
  ],
  exports: [PersonalData],
})
export class PrivacyModule {}
