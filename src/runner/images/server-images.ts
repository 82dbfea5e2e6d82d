import type { IQueryHandler } from '@nestjs/cqrs';
import { conflict } from '../../common/app-error.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { ImageOperations, MAX_IMAGES } from './image-operations.js';
import { ServerIdInput } from './image-inputs.js';

export interface ServerImage {
  repository: string;
  tag: string;
  id: string;
  digest: string | null;
  createdAt: string | null;
  size: string | null;
}

export class ServerImages extends ProcedureQuery<
  ServerIdInput,
  { serverId: string; images: ServerImage[] }
> {}

/** One line of `docker image ls --format '{{json .}}'`, or null. */
function imageOf(line: string): ServerImage | null {
  try {
    const raw = JSON.parse(line) as Record<string, unknown>;
    const text = (key: string) =>
      typeof raw[key] === 'string' && raw[key] !== '<none>' ? (raw[key] as string) : null;
    const id = text('ID');
    if (!id) return null;
    return {
      repository: text('Repository') ?? '<none>',
      tag: text('Tag') ?? '<none>',
      id,
      digest: text('Digest'),
      createdAt: text('CreatedAt'),
      size: text('Size'),
    };
  } catch {
    return null;
  }
}

@Procedure.read(ServerImages, {
  name: 'serverImages',
  roles: EVERYONE,
  scopes: ['server:read'],
  input: ServerIdInput,
  description: 'The images on a server (`docker image ls` over SSH): repository, tag, ID, digest.',
  project: { server: 'serverId' },
})
export class ServerImagesHandler implements IQueryHandler<ServerImages> {
  constructor(private readonly operations: ImageOperations) {}

  async execute({ input, ctx }: ServerImages) {
    const { serverId } = input;
    const { code, stdout, stderr } = await this.operations.run(
      serverId,
      ['docker', 'image', 'ls', '--digests', '--format', '{{json .}}'],
      ctx,
    );
    if (code !== 0) throw conflict('docker image ls failed on the server', { output: stderr });
    const images = stdout
      .map(imageOf)
      .filter((i): i is ServerImage => i !== null)
      .slice(0, MAX_IMAGES);
    return { serverId, images };
  }
}
