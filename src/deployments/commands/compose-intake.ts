import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { CommandBus } from '@nestjs/cqrs';
import { IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest, notFound, type FieldIssue } from '../../common/app-error.js';
import { canonicalJson } from '../../common/canonical-json.js';
import { NestedList } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import {
  NO_BUILD_CONTEXT,
  unbuildableIssues,
  validateCompose,
  type ComposeSummary,
} from '../compose.js';
import { judgingVariables } from '../compose-reading/compose-variables.js';
import {
  EnvList,
  EnvironmentName,
  ImageReference,
  Reason,
  SlugName,
} from '../deployment-fields.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { recordEnv } from '../env-vars.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { UPLOAD_ID, Uploads } from '../uploads/uploads.js';
import type { DeploymentOverride } from './deployment-override.js';
import { TriggerDeploy } from './trigger-deploy.js';
import { EnvVarInput } from './service-settings.input.js';

/** Bytes of one file of a compose intake. */
export const INTAKE_FILE_MAX_BYTES = 1024 * 1024;
/** Files of one compose intake, the compose file included. */
export const INTAKE_MAX_FILES = 16;
/** The names the compose file of an intake may have (at the root of the directory). */
export const COMPOSE_FILE_NAMES = [
  'compose.yaml',
  'compose.yml',
  'docker-compose.yaml',
  'docker-compose.yml',
] as const;

/** Relative, `/`-separated, letters, digits, `.`, `_`, `-`; checked segment by segment too. */
const RELATIVE_PATH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export class IntakeFileInput {
  /** Relative to the deployment's directory: no leading `/`, no `.` or `..` segments. */
  @IsString()
  @MaxLength(255)
  @Matches(RELATIVE_PATH, { message: 'path is relative: letters, digits, . _ - and /' })
  path!: string;

  /** At most 1 MiB (UTF-8); the compose file also within the compose parsing limits. */
  @IsString()
  @MaxLength(INTAKE_FILE_MAX_BYTES)
  contents!: string;
}

export class ComposeDeployInput {
  /** The service to deploy; or `serverId` with `serviceName` (and `environment` if several). */
  @Omittable()
  @IsUUID()
  serviceId?: string;

  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @SlugName()
  serviceName?: string;

  @Omittable()
  @EnvironmentName()
  environment?: string;

  @NestedList(() => IntakeFileInput, { min: 1, max: INTAKE_MAX_FILES })
  files!: IntakeFileInput[];

  /** Replaces the service's env for this deployment; absent: the service's. */
  @Omittable()
  @EnvList(() => EnvVarInput)
  env?: EnvVarInput[];

  /** Absent: the image the compose names from the service's repository. */
  @Omittable()
  @ImageReference()
  imageTag?: string;

  /** A received upload of the caller (POST/PUT /api/v1/deploy/uploads): built on the server. */
  @Omittable()
  @Matches(UPLOAD_ID, { message: 'contextUploadId is upl_ and 22 base64url characters' })
  contextUploadId?: string;

  @Omittable()
  @Reason()
  reason?: string;
}

/** Problems of an intake's file list: paths, sizes, duplicates, the one compose file. */
export function intakeFileIssues(files: IntakeFileInput[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  files.forEach((file, i) => {
    const at = `files.${i}`;
    if (file.path.split('/').some((s) => s === '.' || s === '..'))
      issues.push({ path: `${at}.path`, message: 'no . or .. segments' });
    if (file.path === '.env')
      issues.push({ path: `${at}.path`, message: '.env is written from env' });
    if (seen.has(file.path)) issues.push({ path: `${at}.path`, message: 'duplicate path' });
    seen.add(file.path);
    if (Buffer.byteLength(file.contents, 'utf8') > INTAKE_FILE_MAX_BYTES)
      issues.push({ path: `${at}.contents`, message: 'over 1 MiB' });
  });
  const composes = files.filter((f) => (COMPOSE_FILE_NAMES as readonly string[]).includes(f.path));
  if (composes.length !== 1)
    issues.push({
      path: 'files',
      message: `exactly one compose file (${COMPOSE_FILE_NAMES.join(', ')}) at the root`,
    });
  return issues;
}

/**
 * `POST /api/v1/deploy/compose`: a deployment of a registered service from compose files sent
 * with the request (and, optionally, an uploaded build context). It runs through
 * TriggerDeploy with the intake as an override, so the service's approval rule, the
 * idempotency key and the FIFO queue are those of `triggerDeploy`.
 */
/** The intake deploys as `triggerDeploy` does, in the project of the service it names. */
const INTAKE_ACCESS: AccessTarget = {
  name: 'POST /api/v1/deploy/compose',
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
  project: { service: 'serviceId' },
};

@Injectable()
export class ComposeIntakeHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly uploads: Uploads,
    private readonly commands: CommandBus,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly access: AccessService,
  ) {}

  async execute(input: ComposeDeployInput, given: RequestContext) {
    const service = await this.target(input);
    // Named by server and name or by id, the service is judged in its own project.
    const ctx = await this.access.inProject(INTAKE_ACCESS, given, { serviceId: service.id });
    const issues = intakeFileIssues(input.files);
    if (issues.length) throw badRequest('The compose files are invalid', issues);
    const composeFile = input.files.find((f) =>
      (COMPOSE_FILE_NAMES as readonly string[]).includes(f.path),
    )!;
    // Read with the variables it will run with: the intake's when it sends them.
    const parsed = validateCompose(
      composeFile.contents,
      judgingVariables(input.env ?? service.env),
    );
    if (!parsed.ok) throw badRequest('The compose file is invalid', parsed.issues);
    const context = input.contextUploadId
      ? await this.uploads.forDeployment(input.contextUploadId, ctx)
      : null;
    const unbuildable = unbuildableIssues(parsed.summary);
    if (unbuildable.length && !context) throw badRequest(NO_BUILD_CONTEXT, unbuildable);
    const imageTag =
      input.imageTag ??
      imageOfRepository(parsed.summary, service) ??
      // Only built images: the deployment is named after the context it builds.
      (context && unbuildable.length ? `build-${context.sha256.slice(0, 12)}` : null) ??
      noImageOfRepository(service);
    const digest = createHash('sha256')
      .update(
        canonicalJson({
          files: input.files.map((f) => ({ path: f.path, contents: f.contents })),
          env:
            input.env?.map((v) => ({ name: v.name, value: v.value, secret: !!v.secret })) ?? null,
          context: context?.sha256 ?? null,
        }),
      )
      .digest('hex');
    const override: DeploymentOverride = {
      compose: composeFile.contents,
      files: input.files
        .filter((f) => f !== composeFile)
        .map((f) => ({ path: f.path, contents: f.contents })),
      env: input.env ? recordEnv(input.env, this.box) : null,
      context,
      digest,
    };
    return this.commands.execute(
      new TriggerDeploy({ serviceId: service.id, imageTag, reason: input.reason }, ctx, override),
    );
  }

  private async target(input: ComposeDeployInput): Promise<ServiceDoc> {
    if (input.serviceId) {
      if (input.serverId || input.serviceName)
        throw badRequest('Name the service by serviceId or by serverId and serviceName', [
          { path: 'serviceId', message: 'not with serverId or serviceName' },
        ]);
      return this.lookup.service(input.serviceId);
    }
    if (!input.serverId || !input.serviceName)
      throw badRequest('Name the service by serviceId or by serverId and serviceName', [
        { path: 'serviceId', message: 'required, or serverId and serviceName' },
      ]);
    await this.lookup.server(input.serverId);
    const { items } = await this.lookup.reads.collection<ServiceDoc>('services').find(
      {
        serverId: input.serverId,
        name: input.serviceName,
        ...(input.environment ? { environment: input.environment } : {}),
      },
      { limit: 2 },
    );
    if (items.length === 0) throw notFound('No such service on this server');
    if (items.length > 1)
      throw badRequest('Several environments have a service of that name on this server', [
        { path: 'environment', message: 'required to choose one' },
      ]);
    return items[0];
  }
}

function imageOfRepository(summary: ComposeSummary, service: ServiceDoc): string | null {
  for (const { image } of summary.services) {
    const ref = image === null ? null : parseImageReference(image);
    if (ref && repositoryOf(ref) === service.imageRepository) return image;
  }
  return null;
}

function noImageOfRepository(service: ServiceDoc): never {
  throw badRequest(`The compose file names no image of ${service.imageRepository}`, [
    { path: 'imageTag', message: 'required when the compose names no image of the service' },
  ]);
}
