import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AuditSealer } from './audit-sealer.js';
import { AuditExportController } from './export/audit-export.controller.js';
import { AuditExporter } from './export/audit-exporter.js';
import { EntryResolver } from './trail/entry-resolver.js';
import { AuditTrailHandler } from './trail/audit-trail.js';
import { RefusalRecorder } from './refusals/refusal-recorder.js';
import { AUDIT_SIGNING_KEY, AuditSigningKey } from './audit-signing-key.js';
import { AUDIT_MARK_READER, AuditVerification } from './audit-verification.js';
import { AuditMarks } from './mark/audit-marks.js';
import { AuditWatch } from './audit-watch.js';
import { SealAuditCheckpointHandler } from './seal-audit-checkpoint.js';
import { VerifyAuditTrailHandler } from './verify-audit-trail.js';

@Module({
  imports: [AccessModule],
  providers: [
    {
      provide: AUDIT_SIGNING_KEY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        AuditSigningKey.load(config.dataDir, config.audit.signingKey ?? undefined),
    },
    AuditMarks,
    { provide: AUDIT_MARK_READER, useExisting: AuditMarks },
    AuditSealer,
    AuditVerification,
    AuditWatch,
    VerifyAuditTrailHandler,
    SealAuditCheckpointHandler,
    RefusalRecorder,
    AuditTrailHandler,
    EntryResolver,
    AuditExporter,
  ],
  controllers: [AuditExportController],
  exports: [RefusalRecorder, EntryResolver],
})
export class AuditModule {}
