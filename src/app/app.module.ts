import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { applicationProjections } from '../../projections/index.js';
import type { Projection } from '../../projections/projection.js';
import { AccessModule } from '../access/access.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { HealthModule } from '../health/health.module.js';
import { RpcModule } from '../rpc/rpc.module.js';
import { StorageModule } from '../storage/storage.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  /** Extra modules and projections, for tests that need procedures of their own. */
  extraImports?: ModuleMetadata['imports'];
  extraProjections?: Projection[];
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        CqrsModule.forRoot(),
        StorageModule.forRoot([...applicationProjections, ...(options.extraProjections ?? [])]),
        AccessModule,
        RpcModule,
        HealthModule,
        ...(options.extraImports ?? []),
      ],
      providers: [{ provide: APP_CONFIG, useValue: options.config }],
      exports: [APP_CONFIG],
    };
  }
}
