import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import type { Run } from '../context.js';
import { progressReporter, sizeOf } from './upload-progress.js';

const COMPOSE_NAMES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
const RELATIVE = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export interface ComposeDeployOptions {
  compose: string;
  file?: string[];
  buildContext?: string;
  reason?: string;
  idempotencyKey?: string;
}

function readText(path: string): string {
  try {
    if (statSync(path).size > 1024 * 1024)
      throw new CliError('TOO_LARGE', `${path} is over 1 MiB (the server's limit per file)`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('NOT_FOUND', `Cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Opens an upload and streams the directory to it as a gzip tar, with progress. */
async function uploadContext(run: Run, client: ApiClient, dir: string): Promise<string> {
  // tar-stream loads with the command that packs a context, not at every start.
  const { contextEntries, contextTarball } = await import('./context-tarball.js');
  const entries = contextEntries(dir);
  const total = entries.reduce((n, e) => n + e.size, 0);
  run.out.progress(`build context ${dir}: ${entries.length} entries, ${sizeOf(total)} before gzip`);
  const opened = await client.call<{ uploadId: string; uploadUrl: string; maxBytes: number }>(
    'POST',
    '/api/v1/deploy/uploads',
    {},
  );
  const progress = progressReporter((l) => run.out.progress(l), 'uploading');
  let sent = 0;
  const received = await client.upload<{ sha256: string; bytes: number }>(
    opened.uploadUrl,
    contextTarball(entries),
    'application/gzip',
    (n) => {
      sent = n;
      progress.bytes(n);
    },
  );
  progress.done(sent);
  run.out.progress(`upload ${opened.uploadId} received: sha256 ${received.sha256}`);
  return opened.uploadId;
}

/**
 * `slipway deploy SERVICE [TAG] --compose FILE [--file PATH]... [--build-context DIR]`: the
 * compose file (sent as compose.yaml unless named like one), files beside it, and a build
 * context uploaded first; then POST /api/v1/deploy/compose.
 */
export async function deployCompose(
  run: Run,
  client: ApiClient,
  serviceId: string,
  imageTag: string | undefined,
  opts: ComposeDeployOptions,
) {
  const name = basename(opts.compose);
  const files = [
    {
      path: COMPOSE_NAMES.includes(name) ? name : 'compose.yaml',
      contents: readText(opts.compose),
    },
  ];
  for (const path of opts.file ?? []) {
    if (!RELATIVE.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
      throw new CliError('BAD_PATH', `--file ${path}: a relative path inside this directory`);
    files.push({ path, contents: readText(path) });
  }
  const contextUploadId = opts.buildContext
    ? await uploadContext(run, client, opts.buildContext)
    : undefined;
  const headers: Record<string, string> = opts.idempotencyKey
    ? { 'Idempotency-Key': opts.idempotencyKey }
    : {};
  return client.call<{ status: string; deploymentId?: string; approvalId?: string }>(
    'POST',
    '/api/v1/deploy/compose',
    { serviceId, files, imageTag, contextUploadId, reason: opts.reason },
    headers,
  );
}
