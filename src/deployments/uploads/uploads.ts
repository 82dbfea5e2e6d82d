import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { AppError, badRequest } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { DeploymentContext } from '../../events/deployments.events.js';
import { uploadStream } from '../../events/uploads.events.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { receiveContext } from './context-tar.js';
import { uploadDecider, uploadRefusal } from './upload.decider.js';

/** `upl_` and 22 base64url characters (128 random bits). */
export const UPLOAD_ID = /^upl_[A-Za-z0-9_-]{22}$/;
/** How long an upload may be filled and built from. */
export const UPLOAD_TTL_MS = 3_600_000;
/** Tarballs are kept this long (a queued deployment may still need one), then swept. */
const KEEP_MS = 24 * 3_600_000;

export interface OpenedUpload {
  uploadId: string;
  expiresAt: string;
  maxBytes: number;
  uploadUrl: string;
}

/** Where the tarball of an upload lives on the control plane (checked, never unpacked here). */
export function contextTarball(dataDir: string, uploadId: string): string {
  if (!UPLOAD_ID.test(uploadId)) throw new Error('not an upload id');
  return join(dataDir, 'uploads', `${uploadId}.tar.gz`);
}

/**
 * Build contexts uploaded for a deployment: an id handed to one principal, a gzip tar received
 * once within the size cap and checked entry by entry, then referenced by a compose intake.
 */
@Injectable()
export class Uploads {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get dir(): string {
    return join(this.config.dataDir, 'uploads');
  }

  async open(ctx: RequestContext): Promise<OpenedUpload> {
    this.sweep();
    const uploadId = `upl_${randomBytes(16).toString('base64url')}`;
    const maxBytes = this.config.uploads.contextMaxBytes;
    const expiresAt = new Date(this.clock.now().getTime() + UPLOAD_TTL_MS).toISOString();
    await this.runner.run(
      uploadStream(uploadId),
      uploadDecider,
      { kind: 'open', uploadId, principalId: ctx.principal!.id, maxBytes, expiresAt },
      ctx,
    );
    return { uploadId, expiresAt, maxBytes, uploadUrl: `/api/v1/deploy/uploads/${uploadId}` };
  }

  async receive(
    uploadId: string,
    body: Readable,
    declaredLength: number | null,
    ctx: RequestContext,
  ) {
    const principalId = ctx.principal!.id;
    const state = await this.runner.load(uploadStream(uploadId), uploadDecider);
    const refused = uploadRefusal(state, principalId, this.clock.now().getTime(), 'fill');
    if (refused) throw refused;
    const maxBytes = state.opened!.maxBytes;
    if (declaredLength !== null && declaredLength > maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The upload is over its limit of ${maxBytes} bytes`, {
        maxBytes,
      });
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = contextTarball(this.config.dataDir, uploadId);
    // Each request writes its own file; only the one the decider accepts takes the upload's name
    // (two PUTs at once cannot mix their bytes).
    const part = `${file}.${randomBytes(6).toString('hex')}.part`;
    let checked;
    try {
      checked = await receiveContext(body, part, maxBytes);
      await this.runner.run(
        uploadStream(uploadId),
        uploadDecider,
        { kind: 'receive', uploadId, principalId, now: this.clock.now().getTime(), ...checked },
        ctx,
      );
      renameSync(part, file);
    } finally {
      rmSync(part, { force: true });
    }
    return { uploadId, ...checked };
  }

  /** The received upload a deployment builds from; only its principal's, before it expires. */
  async forDeployment(uploadId: string, ctx: RequestContext): Promise<DeploymentContext> {
    if (!UPLOAD_ID.test(uploadId))
      throw badRequest('contextUploadId is not an upload id', [
        { path: 'contextUploadId', message: 'upl_ and 22 base64url characters' },
      ]);
    const state = await this.runner.load(uploadStream(uploadId), uploadDecider);
    const refused = uploadRefusal(state, ctx.principal!.id, this.clock.now().getTime(), 'use');
    if (refused) throw refused;
    return { uploadId, sha256: state.received!.sha256, bytes: state.received!.bytes };
  }

  /** Removes tarballs older than a day. */
  private sweep(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const cutoff = Date.now() - KEEP_MS;
    for (const name of names) {
      const path = join(this.dir, name);
      try {
        if (statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
      } catch {
        // gone already
      }
    }
  }
}
