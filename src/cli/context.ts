import type { Command } from 'commander';
import { ApiClient } from './api-client.js';
import { CliError } from './cli-error.js';
import { CredentialsStore } from './credentials-store.js';
import { Output } from './output.js';
import { sameServer } from './server-address.js';

export interface GlobalOptions {
  json?: boolean;
  context?: string;
}

export interface Run {
  out: Output;
  store: CredentialsStore;
  /**
   * The client for the current context; `SLIPWAY_URL` + `SLIPWAY_TOKEN` override it together. A
   * stored credential goes only to the server it was stored for: `SLIPWAY_URL` alone (from a
   * repository's `.envrc`, a CI variable) must not send it elsewhere.
   */
  client(): ApiClient;
}

export function runFor(command: Command): Run {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const store = new CredentialsStore();
  return {
    out: new Output(!!globals.json),
    store,
    client: () => {
      const url = process.env.SLIPWAY_URL || undefined;
      const token = process.env.SLIPWAY_TOKEN || undefined;
      if (url && token) return new ApiClient({ url, credential: token });
      const found = store.get(globals.context);
      if (!found)
        throw new CliError(
          'NOT_LOGGED_IN',
          'Not logged in: run `slipway login --url URL --token TOKEN` (or set SLIPWAY_URL and SLIPWAY_TOKEN)',
        );
      if (url && !sameServer(url, found.context.url))
        throw new CliError(
          'BAD_USAGE',
          `SLIPWAY_URL (${url.slice(0, 200)}) is not the server of context "${found.name}" (${found.context.url}): set SLIPWAY_TOKEN with it, or unset it`,
        );
      return new ApiClient({ url: found.context.url, credential: found.context.credential });
    },
  };
}

/** Wraps a command's work: errors become the one-line message or JSON, with the exit code. */
export function action<A extends unknown[]>(work: (run: Run, ...args: A) => Promise<void>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const run = runFor(command);
    try {
      await work(run, ...(args.slice(0, -1) as A));
    } catch (error) {
      process.exitCode = run.out.fail(error);
    }
  };
}
