import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { PRIMARY_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { EraseSubjectDataHandler } from './erase-subject-data.js';
import { PersonalData, SUBJECT_KEY_VAULT } from '../../privacy/personal-data.js';
import { PrivacyReconciler } from './privacy-reconciler.js';
import { SubjectErasure } from './subject-erasure.js';
import { SubjectKeyVault } from '../../privacy/subject-key-vault.js';
import { importLegacySubjectKeys } from '../../privacy/legacy-subject-keys.js';

/** Personal data sealing for every context that writes events (global: the writer needs it). */
@Global()
@Module({
  providers: [
    {
      provide: SUBJECT_KEY_VAULT,
      inject: [APP_CONFIG, PRIMARY_STORE, SECRET_BOX],
      useFactory: async (config: AppConfig, primary: ReadStore, box: SecretBox) => {
        await importLegacySubjectKeys(join(config.dataDir, 'subject-keys.db'), primary, true);
        return SubjectKeyVault.open(primary, box);
      },
    },
    PersonalData,
    PrivacyReconciler,
    SubjectErasure,
    EraseSubjectDataHandler,
  ],
  exports: [PersonalData],
})
export class PrivacyModule {}
