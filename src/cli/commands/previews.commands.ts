import type { Command } from 'commander';
import type { ServicePreviewsAnswer } from '../../deployments/git/previews/service-previews.js';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { columnTable } from '../output.js';
import { resolveService } from './resolve.js';

const NUMBER = /^[1-9]\d{0,8}$/;

export function registerPreviewCommands(program: Command): void {
  const previews = program
    .command('previews')
    .description('the preview environments of a service’s pull requests');
  previews
    .command('list <service>')
    .description('open pull requests’ previews: state, address, commit, last deployment')
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const answer = await client.query<ServicePreviewsAnswer>('servicePreviews', {
          serviceId,
        });
        run.out.ok(answer, () =>
          answer.previews.length
            ? columnTable(answer.previews, [
                ['#', (p) => p.number],
                ['STATE', (p) => (p.state === 'waiting' ? 'waiting (approve it)' : p.state)],
                ['URL', (p) => p.url ?? '-'],
                ['COMMIT', (p) => p.headCommit?.slice(0, 12) ?? '-'],
                ['BY', (p) => `${p.author ?? '-'}${p.fromFork ? ' (fork)' : ''}`],
                ['DEPLOYMENT', (p) => p.latestDeployment?.status ?? '-'],
                ['EXPIRES', (p) => p.expiresAt ?? '-'],
              ])
            : 'No previews.',
        );
      }),
    );
  onePreview(previews, {
    name: 'approve',
    description:
      'let a fork’s pull request be built and previewed at its head commit (the one shown, or --commit)',
    ask: (n, head) => `Build and run the code of pull request #${n} at ${head} on your server`,
    procedure: 'approveServicePreview',
    atCommit: true,
    said: (a: { approved: boolean; headCommit: string }) =>
      a.approved
        ? `Approved at ${a.headCommit.slice(0, 12)}: it is being built.`
        : 'It was not waiting for an approval.',
  });
  onePreview(previews, {
    name: 'close',
    description: 'tear a pull request’s preview down (a later push opens it again)',
    ask: (n) => `Tear down the preview of pull request #${n}`,
    procedure: 'closeServicePreview',
    said: (a: { closed: boolean }) => (a.closed ? 'Closed.' : 'That preview was not open.'),
  });
}

/** `previews <name> <service> <number>`: one procedure on one preview, confirmed first. */
function onePreview<A>(
  previews: Command,
  c: {
    name: string;
    description: string;
    ask: (n: number, headCommit: string) => string;
    procedure: string;
    said: (answer: A) => string;
    /** The call names the head commit it acts on: `--commit`, or the one the prompt shows. */
    atCommit?: true;
  },
): void {
  const command = previews
    .command(`${c.name} <service> <number>`)
    .description(c.description)
    .option('--yes', 'do not ask for confirmation');
  if (c.atCommit) command.option('--commit <sha>', 'the full head commit you looked at');
  command.action(
    action(async (run, ref: string, number: string, opts: { yes?: boolean; commit?: string }) => {
      const client = run.client();
      const serviceId = await resolveService(client, ref);
      const n = pullRequestNumber(number);
      const headCommit = c.atCommit ? (opts.commit ?? (await headOf(client, serviceId, n))) : '';
      await confirm(opts.yes, c.ask(n, headCommit.slice(0, 12)));
      const answer = await client.mutation<A>(c.procedure, {
        serviceId,
        number: n,
        ...(c.atCommit ? { headCommit } : {}),
      });
      run.out.ok(answer, () => c.said(answer));
    }),
  );
}

/** The head commit a preview shows now, to name in the prompt and in the call. */
async function headOf(client: ApiClient, serviceId: string, number: number): Promise<string> {
  const { previews } = await client.query<ServicePreviewsAnswer>('servicePreviews', { serviceId });
  const head = previews.find((p) => p.number === number)?.headCommit;
  if (!head) throw new CliError('NOT_FOUND', `No open preview of pull request ${number}`);
  return head;
}

function pullRequestNumber(text: string): number {
  if (!NUMBER.test(text)) throw new CliError('BAD_USAGE', `${text}: a pull request number`);
  return Number(text);
}
