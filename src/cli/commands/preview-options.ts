import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { collect } from '../option-values.js';
import { envFrom } from './services.commands.js';

export interface PreviewOptions {
  previewDomain?: string;
  previewRoute?: string;
  previewNoTls?: boolean;
  previewLimit?: string;
  previewTtlHours?: string;
  previewEnv: string[];
  previewSecret: string[];
  previewMemory?: string;
  previewCpus?: string;
}

/** What a pull request's preview is set up with, as `git set` takes it. */
export function withPreviewOptions(command: Command): Command {
  return command
    .option(
      '--preview-domain <domain>',
      'preview each pull request on pr-<n>.<domain> (a wildcard DNS record to the server)',
    )
    .option('--preview-route <SERVICE:PORT>', 'the compose service and port previews serve')
    .option('--preview-no-tls', 'serve previews on plain HTTP (default: HTTPS over ACME)')
    .option('--preview-limit <n>', 'previews at once, waiting ones included (default 3)')
    .option('--preview-ttl-hours <n>', 'tear a preview down after this long without a push (72)')
    .option('--preview-env <NAME=VALUE>', 'a variable of previews (repeatable)', collect, [])
    .option(
      '--preview-secret <NAME[=VALUE]>',
      'a secret variable of previews (repeatable; NAME alone reads $NAME): production’s are never given',
      collect,
      [],
    )
    .option('--preview-memory <MiB>', 'memory limit of each preview container')
    .option('--preview-cpus <n>', 'CPU limit of each preview container (e.g. 0.5)');
}

const number = (flag: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError('BAD_USAGE', `${flag} ${value}: give a number`);
  return n;
};

/** The `previews` input of setServiceGitSource, or undefined when no preview option is given. */
export function previewSettings(opts: PreviewOptions) {
  if (!opts.previewDomain) {
    if (opts.previewRoute || opts.previewEnv.length || opts.previewSecret.length)
      throw new CliError('BAD_USAGE', 'the --preview-* options need --preview-domain');
    return undefined;
  }
  const route = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(\d{1,5})$/.exec(opts.previewRoute ?? '');
  if (!route)
    throw new CliError(
      'BAD_USAGE',
      '--preview-route SERVICE:PORT: which compose service previews serve',
    );
  return {
    baseDomain: opts.previewDomain,
    service: route[1],
    port: Number(route[2]),
    tls: opts.previewNoTls ? 'off' : 'auto',
    limit: number('--preview-limit', opts.previewLimit),
    ttlHours: number('--preview-ttl-hours', opts.previewTtlHours),
    env: envFrom(opts.previewEnv, opts.previewSecret),
    memoryMb: number('--preview-memory', opts.previewMemory),
    cpus: number('--preview-cpus', opts.previewCpus),
  };
}
