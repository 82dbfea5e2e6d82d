import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../kernel/request-context.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { EventWriter } from '../../storage/event-writer.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { BackupRecorded, serviceBackupsStream } from '../../events/deployments.events.js';
import type { RecordBackupInput } from '../deployments.inputs.js';

export class RecordBackupCommand extends Command<{ backupId: string }> {
  constructor(
    readonly input: RecordBackupInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** Records a backup taken elsewhere (the runner records its own the same way). */
@CommandHandler(RecordBackupCommand)
export class RecordBackupHandler implements ICommandHandler<RecordBackupCommand> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly writer: EventWriter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: RecordBackupCommand) {
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
