import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import {
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { EventWriter } from '../../storage/event-writer.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { BackupRecorded, serviceBackupsStream } from '../../events/deployments.events.js';
import { Omittable } from '../../common/omittable.js';

export class RecordBackupInput {
  @IsUUID()
  serviceId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  location!: string;

  @Matches(/^sha256:[a-f0-9]{64}$/, { message: 'checksum is sha256:<64 hex>' })
  checksum!: string;

  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  sizeBytes!: number;

  @Omittable()
  @IsISO8601()
  takenAt?: string;
}

export class RecordBackup extends ProcedureCommand<RecordBackupInput, { backupId: string }> {}

/** Records a backup taken elsewhere (the runner records its own the same way). */
@Procedure.command(RecordBackup, {
  name: 'recordBackup',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: RecordBackupInput,
  description: 'Records a backup artifact: location, SHA-256 checksum, size, time.',
  project: { service: 'serviceId' },
})
export class RecordBackupHandler implements ICommandHandler<RecordBackup> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly writer: EventWriter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: RecordBackup): Promise<{ backupId: string }> {
    await this.lookup.service(input.serviceId);
    const backupId = randomUUID();
    const takenAt = input.takenAt
      ? new Date(input.takenAt).toISOString()
      : this.clock.now().toISOString();
    await this.writer.append(
      serviceBackupsStream(input.serviceId),
      [
        BackupRecorded({
          backupId,
          serviceId: input.serviceId,
          location: input.location,
          checksum: input.checksum,
          sizeBytes: input.sizeBytes,
          takenAt,
        }),
      ],
      'any',
      ctx,
    );
    return { backupId };
  }
}
