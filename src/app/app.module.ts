import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { applicationProjections } from '../../projections/index.js';
import type { Projection } from '../../projections/projection.js';
import { AccessModule } from '../access/access.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { HealthModule } from '../health/health.module.js';
import { RouteDeclarationGuard } from '../http/route-declaration.guard.js';
import { IdentityModule } from '../identity/identity.module.js';
import { SecurityModule } from '../security/security.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { MailModule } from '../mail/mail.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { ApiV1Module } from '../api-v1/api-v1.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { RunnerModule } from '../runner/runner.module.js';
import { DrainsModule } from '../drains/drains.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { PrivacyModule } from '../audit/privacy/privacy.module.js';
import { CLOCK, systemClock, type Clock } from '../common/clock.js';
import { McpModule } from '../mcp/mcp.module.js';
import { RpcModule } from '../rpc/rpc.module.js';
import { ReactionsModule } from './reactions.module.js';
import { StorageModule } from './storage.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  /** Extra modules and projections, for tests that need procedures of their own. */
  extraImports?: ModuleMetadata['imports'];
  extraProjections?: Projection[];
  /** Time source for every component (tests move it to expire tokens and sessions). */
  clock?: Clock;
  /**
   * The name this process's reaction feed keeps its checkpoint under: `api` (default) or
   * `worker`, each process reacting to every event in its own EventBus.
   */
  reactionConsumer?: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        CqrsModule.forRoot(),
        MailModule,
        SecretsModule,
        PrivacyModule,
        StorageModule.forRoot([...applicationProjections, ...(options.extraProjections ?? [])]),
        AccessModule,
        IdentityModule,
        SecurityModule,
        ProjectsModule,
        ApiV1Module,
        DeploymentsModule,
        RunnerModule,
        NotificationsModule,
        AuditModule,
        DrainsModule,
        RpcModule,
        McpModule,
        HealthModule,
        ReactionsModule.forRoot(options.reactionConsumer ?? 'api'),
        ...(options.extraImports ?? []),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: APP_GUARD, useClass: RouteDeclarationGuard },
      ],
      exports: [APP_CONFIG, CLOCK],
    };
  }
}
