import { Inject, Injectable } from '@nestjs/common';
import type { DeployHookDoc } from '../../../projections/deploy-hooks.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { DeployHookRule } from '../../events/notifications.events.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';

export interface DeployHookView {
  hookId: string;
  serviceId: string;
  name: string;
  url: string;
  rules: DeployHookRule[];
  status: 'active' | 'revoked';
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
  /** Takes unsigned deliveries at a URL of its own (shown only when it was made). */
  unsignedUrl: boolean;
}

/** Deploy hooks as the read model holds them, and as callers read them (never a secret). */
@Injectable()
export class DeployHooks {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  url(hookId: string): string {
    return `${this.config.publicUrl}/api/v1/hooks/${hookId}`;
  }

  async get(hookId: string): Promise<DeployHookDoc | null> {
    return this.reads.collection<DeployHookDoc>('deploy_hooks').get(hookId);
  }

  view(doc: DeployHookDoc): DeployHookView {
    return {
      hookId: doc.id,
      serviceId: doc.serviceId,
      name: doc.name,
      url: this.url(doc.id),
      rules: doc.rules,
      status: doc.status,
      createdAt: doc.createdAt,
      createdBy: doc.createdBy,
      revokedAt: doc.revokedAt,
      unsignedUrl: doc.unsignedUrl === true,
    };
  }
}
