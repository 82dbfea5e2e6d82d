import { createReadStream, statSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { progressReporter, sizeOf } from './upload-progress.js';
import { resolveServer } from './resolve.js';

interface ServerImage {
  repository: string;
  tag: string;
  id: string;
  createdAt: string | null;
  size: string | null;
}

export function registerImageCommands(program: Command): void {
  const images = program
    .command('images')
    .description('images on a server, over SSH: list, pull, push (docker load), remove, prune');
  images
    .command('list <server>')
    .description('the images on the server (docker image ls)')
    .action(
      action(async (run, server: string) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        const answer = await client.query<{ images: ServerImage[] }>('serverImages', { serverId });
        run.out.listing(answer, answer.images, [
          ['repository', (i) => i.repository],
          ['tag', (i) => i.tag],
          ['id', (i) => i.id],
          ['created', (i) => i.createdAt ?? ''],
          ['size', (i) => i.size ?? ''],
        ]);
      }),
    );
  images
    .command('pull <server> <reference>')
    .description('docker pull on the server (a reference with a tag or digest)')
    .action(
      action(async (run, server: string, reference: string) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        const answer = await client.mutation<{ output: string[] }>('pullServerImage', {
          serverId,
          reference,
        });
        run.out.ok(answer, () => [...answer.output, `Pulled ${reference}`].join('\n'));
      }),
    );
  images
    .command('push <server> <tarball>')
    .description('stream a `docker save` tarball to the server and docker load it there')
    .action(
      action(async (run, server: string, tarball: string) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        let size: number;
        try {
          size = statSync(tarball).size;
        } catch {
          throw new CliError('NOT_FOUND', `Cannot read ${tarball}`);
        }
        run.out.progress(`pushing ${tarball} (${sizeOf(size)})`);
        const progress = progressReporter((l) => run.out.progress(l), 'uploading');
        let sent = 0;
        const answer = await client.upload<{ loaded: string[]; sha256: string; bytes: number }>(
          `/api/v1/servers/${encodeURIComponent(serverId)}/images`,
          createReadStream(tarball),
          'application/x-tar',
          (n) => {
            sent = n;
            progress.bytes(n);
          },
        );
        progress.done(sent);
        run.out.ok(answer, () =>
          [`Loaded ${answer.loaded.join(', ') || 'nothing'}`, `sha256 ${answer.sha256}`].join('\n'),
        );
      }),
    );
  images
    .command('remove <server> <reference>')
    .description('docker image rm on the server (a reference or an image ID)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, server: string, reference: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        await confirm(opts.yes, `Remove ${reference} from ${server}`);
        const answer = await client.mutation<{ output: string[] }>('removeServerImage', {
          serverId,
          reference,
        });
        run.out.ok(answer, () => [...answer.output, `Removed ${reference}`].join('\n'));
      }),
    );
  images
    .command('prune <server>')
    .description('remove dangling images from the server (--all: every image no container uses)')
    .option('--all', 'every unused image, not only dangling ones')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, server: string, opts: { all?: boolean; yes?: boolean }) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        await confirm(
          opts.yes,
          `Prune ${opts.all ? 'all unused' : 'dangling'} images on ${server}`,
        );
        const answer = await client.mutation<{ output: string[] }>('pruneServerImages', {
          serverId,
          all: !!opts.all,
        });
        run.out.ok(answer, () => answer.output.join('\n'));
      }),
    );
}
