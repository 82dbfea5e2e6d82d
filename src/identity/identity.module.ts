import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { AuthController } from './auth.controller.js';
import { ChangeUserRoleHandler } from './commands/change-user-role.handler.js';
import { DeactivateUserHandler } from './commands/deactivate-user.handler.js';
import { LogInHandler } from './commands/log-in.handler.js';
import { LogOutHandler } from './commands/log-out.handler.js';
import { SignUpHandler } from './commands/sign-up.handler.js';
import { IdentityProcedures } from './identity.procedures.js';
import { ListPrincipalsHandler } from './members.query.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionStarter } from './session-starter.js';

@Module({
  imports: [AccessModule],
  controllers: [AuthController],
  providers: [
    PasswordHasher,
    SessionStarter,
    SignUpHandler,
    LogInHandler,
    LogOutHandler,
    ChangeUserRoleHandler,
    DeactivateUserHandler,
    ListPrincipalsHandler,
    IdentityProcedures,
  ],
})
export class IdentityModule {}
