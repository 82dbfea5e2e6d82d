import { randomBytes, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsBoolean, IsIn, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { badRequest } from '../../common/app-error.js';
import { DisplayName, NestedList } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { deployHookStream, type DeployHookRule } from '../../events/notifications.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { deployHookDecider } from './deploy-hook.decider.js';
import { DeployHooks } from './deploy-hooks.js';
import { unsignedUrlToken } from './hook-signature.js';

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

  @NestedList(() => DeployHookRuleInput, { min: 1, max: 20 })
  rules!: DeployHookRuleInput[];

  /**
   * Also take unsigned deliveries (Docker Hub signs nothing) at a URL of its own, shown once:
   * weaker than a signature, since whoever sees the URL can post to it.
   */
  @Omittable()
  @IsBoolean()
  unsignedUrl?: boolean;
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

export interface CreatedDeployHook {
  hookId: string;
  serviceId: string;
  /** Where deliveries are posted: `POST /api/v1/hooks/{hookId}`. */
  url: string;
  /**
   * The signing secret, returned this once: GitHub's and Gitea's "Secret", GitLab's "Secret
   * token" or "Signing token" (`whsec_` and 32 bytes in base64, the Standard Webhooks form).
   */
  secret: string;
  /** With `unsignedUrl`: the URL that takes unsigned deliveries, returned this once; else null. */
  unsignedUrl: string | null;
  rules: DeployHookRule[];
}

export class CreateDeployWebhook extends ProcedureCommand<
  CreateDeployWebhookInput,
  CreatedDeployHook
> {}

/**
 * A hook for a service: its URL and its signing secret, shown this once. The secret is a
 * credential that deploys, so it takes a human whose effective scopes hold both `service:write`
 * and `deploy:start`.
 */
@Procedure.command(CreateDeployWebhook, {
  name: 'createDeployWebhook',
  roles: OPERATORS,
  scopes: ['service:write', 'deploy:start'],
  input: CreateDeployWebhookInput,
  description:
    'Creates an inbound deploy hook for a service: `{serviceId, name, rules: [{source: "tag"|"image", pattern, image, allowRollback?}], unsignedUrl?}` → its URL (`POST /api/v1/hooks/{id}`) and signing secret, shown once (GitHub/Gitea secret, GitLab secret or signing token); with unsignedUrl, a URL that takes unsigned deliveries (Docker Hub), shown once.',
  project: { service: 'serviceId' },
})
export class CreateDeployWebhookHandler implements ICommandHandler<CreateDeployWebhook> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
    private readonly hooks: DeployHooks,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: CreateDeployWebhook): Promise<CreatedDeployHook> {
    const service = await this.lookup.service(input.serviceId);
    const rules = checkRules(input.rules, service.imageRepository);
    const hookId = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
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
          ...(input.unsignedUrl ? { unsignedUrl: true } : {}),
        },
      },
      ctx,
    );
    const url = this.hooks.url(hookId);
    const unsignedUrl = input.unsignedUrl ? `${url}/${unsignedUrlToken(secret, hookId)}` : null;
    return { hookId, serviceId: service.id, url, secret, unsignedUrl, rules };
  }
}
