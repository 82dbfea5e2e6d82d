import { Injectable } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure } from '../kernel/procedure.js';
import { BackupTaker, type TakenBackup } from './backup-taker.js';
import { DEPLOYERS } from '../kernel/roles.js';

export class TriggerBackupInput {
  @IsUUID()
  serviceId!: string;
}

export class TriggerBackupCommand extends Command<TakenBackup> {
  constructor(
    readonly serviceId: string,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(TriggerBackupCommand)
export class TriggerBackupHandler implements ICommandHandler<TriggerBackupCommand> {
  constructor(private readonly backups: BackupTaker) {}

  execute({ serviceId, ctx }: TriggerBackupCommand) {
    return this.backups.take(serviceId, ctx);
  }
}

@Injectable()
export class BackupProcedures {
  constructor(private readonly commands: CommandBus) {}

  @Procedure({
    name: 'triggerBackup',
    lane: 'command',
    auth: 'authenticated',
    roles: DEPLOYERS,
    scopes: ['backup:write'],
    input: TriggerBackupInput,
    description: "Runs the service's backup command over SSH; records location, SHA-256 and size.",
  })
  triggerBackup(input: TriggerBackupInput, ctx: RequestContext) {
    return this.commands.execute(new TriggerBackupCommand(input.serviceId, ctx));
  }
}
