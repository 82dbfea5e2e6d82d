import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import type { DeployHookDoc } from '../../../projections/deploy-hooks.projection.js';
import { badRequest, notFound } from '../../common/app-error.js';
import { DisplayName, PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { deployHookStream, type DeployHookRule } from '../../events/notifications.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { deployHookDecider } from './deploy-hook.decider.js';

export class DeployHookRuleInput {
  @IsIn(['tag', 'image'])
  source!: 'tag' | 'image';

  /** Glob over the tag: letters, digits, `._-` and `*`, e.g. `v*` or `*`. */
  @IsString()
  @Matches(/^[A-Za-z0-9._*-]{1,128}$/, {
    message: 'pattern is letters, digits, . _ - and * (1-128)',
  })
  pattern!: string;

  /** Image template, e.g. `registry.example.com/team/app:{tag}` (`{version}`: without `v`). */
  @IsString()
  @MaxLength(300)
  @Matches(/^[^\s\p{Cc}]{1,300}$/u, { message: 'image is a template without spaces' })
  image!: string;

  /**
   * May a delivery this rule maps go back to an image the hook has deployed before and since
   * moved past? Default false: refused (`409`, `reason: "rollback"`).
   */
  @Omittable()
  @IsBoolean()
  allowRollback?: boolean;
}

export class CreateDeployWebhookInput {
  @IsUUID()
  serviceId!: string;

  @DisplayName()
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => DeployHookRuleInput)
  rules!: DeployHookRuleInput[];
}

export class DeployWebhooksInput {
  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class RevokeDeployWebhookInput {
  @IsUUID()
  hookId!: string;
}

/** A rule's template must make an image of the service's repository, whatever the tag. */
function checkRules(rules: DeployHookRuleInput[], repository: string): DeployHookRule[] {
  return rules.map((rule, i) => {
    const sample = rule.image.replaceAll('{tag}', 'v1.0.0').replaceAll('{version}', '1.0.0');
    const ref = parseImageReference(sample);
    if (!ref || repositoryOf(ref) !== repository || sample === rule.image) {
      throw badRequest(`rules[${i}].image must be a template of an image of ${repository}`, [
        {
          path: `rules.${i}.image`,
          message: `e.g. ${repository}:{tag}; the tag must come from {tag} or {version}`,
        },
      ]);
    }
    return {
      source: rule.source,
      pattern: rule.pattern,
      image: rule.image,
      ...(rule.allowRollback ? { allowRollback: true } : {}),
    };
  });
}

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
}

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
    };
  }
}

/** A hook for a service: its URL and its signing secret, shown this once. */
@Injectable()
export class CreateDeployWebhookHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
    private readonly hooks: DeployHooks,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(input: CreateDeployWebhookInput, ctx: RequestContext) {
    const service = await this.lookup.service(input.serviceId);
    const rules = checkRules(input.rules, service.imageRepository);
    const hookId = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    await this.runner.run(
      deployHookStream(hookId),
      deployHookDecider,
      {
        kind: 'create',
        event: {
          hookId,
          serviceId: service.id,
          name: input.name,
          secretCiphertext: this.box.seal(secret),
          rules,
        },
      },
      ctx,
    );
    return { hookId, serviceId: service.id, url: this.hooks.url(hookId), secret, rules };
  }
}

@Injectable()
export class RevokeDeployWebhookHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly hooks: DeployHooks,
  ) {}

  async execute(input: RevokeDeployWebhookInput, ctx: RequestContext) {
    const hook = await this.hooks.get(input.hookId);
    if (!hook) throw notFound('No such deploy hook');
    await this.runner.run(
      deployHookStream(hook.id),
      deployHookDecider,
      { kind: 'revoke', hookId: hook.id },
      ctx,
    );
    return { hookId: hook.id, status: 'revoked' as const };
  }
}

/** Hooks, newest first; of one service when it is named (which must exist). Never secrets. */
@Injectable()
export class DeployWebhooksHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
    private readonly hooks: DeployHooks,
  ) {}

  async execute(input: DeployWebhooksInput) {
    const filter: Filter = {};
    if (input.serviceId) {
      await this.lookup.service(input.serviceId);
      filter.serviceId = input.serviceId;
    }
    const page = await this.reads
      .collection<DeployHookDoc>('deploy_hooks')
      .find(filter, { sort: { createdAt: -1 }, limit: input.limit ?? 50, cursor: input.cursor });
    return { items: page.items.map((d) => this.hooks.view(d)), nextCursor: page.nextCursor };
  }
}
