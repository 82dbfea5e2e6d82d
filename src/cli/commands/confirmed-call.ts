import type { Command } from 'commander';
import type { ApiClient } from '../api-client.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';

/** A state change on the one thing a command's one argument names. */
export interface ConfirmedCall<A> {
  /** As commander takes it, e.g. `remove <ruleId>`. */
  command: string;
  description?: string;
  /**
   * A name to turn into the id the procedure takes, before anything is asked: a name that does
   * not exist is refused at once. Without it the argument goes as given.
   */
  resolve?: (client: ApiClient, ref: string) => Promise<string>;
  /** The question asked when --yes is not given. */
  ask: (ref: string) => string;
  /** The one procedure, called with the id once confirmed. */
  call: (client: ApiClient, id: string) => Promise<A>;
  /** What people read once it is done; --json prints the answer itself. */
  said: (answer: A, ref: string) => string;
}

/** `<group> <command> [--yes]`: look the argument up if need be, confirm, call, answer. */
export function confirmedCall<A>(group: Command, c: ConfirmedCall<A>): void {
  const command = group.command(c.command);
  if (c.description) command.description(c.description);
  command.option('--yes', 'do not ask for confirmation').action(
    action(async (run, ref: string, opts: { yes?: boolean }) => {
      // A name is looked up before the question, so that an unknown one is refused at once; an
      // id goes as given, and nothing reaches for credentials before the question is answered.
      let client: ApiClient | undefined;
      let id = ref;
      if (c.resolve) {
        client = run.client();
        id = await c.resolve(client, ref);
      }
      await confirm(opts.yes, c.ask(ref));
      const answer = await c.call(client ?? run.client(), id);
      run.out.ok(answer, () => c.said(answer, ref));
    }),
  );
}
