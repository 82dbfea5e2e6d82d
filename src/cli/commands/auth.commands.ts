import type { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { passwordFrom, stdinFirstLine, totpCodeFrom, type PasswordOptions } from '../user-input.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { ssoSession } from '../sso-login.js';

interface Viewer {
  principal: { id: string; kind: string; name: string; email: string | null; role: string };
  authMethod: string;
  scopes: string[];
  token: {
    id: string;
    name: string;
    scopes: string[];
    lane: string;
    expiresAt: string | null;
  } | null;
  session: unknown;
}

async function whoami(client: ApiClient): Promise<Viewer> {
  return client.query<Viewer>('viewer');
}

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('store credentials for a Slipway server (validated before they are saved)')
    .requiredOption('--url <url>', 'server address, e.g. https://slipway.example.com')
    .option(
      '--token <token>',
      'an API token (slw_...; visible in shell history: prefer --token-stdin)',
    )
    .option('--token-stdin', 'read the API token from standard input (first line)')
    .option('--email <email>', 'log in with email and password')
    .option(
      '--sso <provider>',
      'sign in through an identity provider, in a browser (the address is printed)',
    )
    .option('--sso-timeout <seconds>', 'how long to wait for the browser sign-in', '300')
    .option(
      '--password <password>',
      'the password (visible in shell history: prefer --password-stdin, SLIPWAY_PASSWORD or the prompt)',
    )
    .option('--password-stdin', 'read the password from standard input (first line)')
    .option('--totp-code <code>', 'the 6-digit code, when the account has MFA')
    .option('--recovery-code <code>', 'a recovery code instead of the TOTP code (used up)')
    .option('--name <context>', 'context name to store it under', 'default')
    .action(
      action(
        async (
          run,
          opts: PasswordOptions & {
            url: string;
            token?: string;
            tokenStdin?: boolean;
            email?: string;
            sso?: string;
            ssoTimeout: string;
            totpCode?: string;
            recoveryCode?: string;
            name: string;
          },
        ) => {
          let credential: string;
          if ([opts.token, opts.tokenStdin, opts.email, opts.sso].filter(Boolean).length > 1) {
            throw new CliError('BAD_USAGE', 'Use one of --token, --token-stdin, --email and --sso');
          }
          if (opts.tokenStdin) {
            credential = (await stdinFirstLine()).trim();
            if (!credential) throw new CliError('BAD_USAGE', 'No token on standard input');
          } else if (opts.token) {
            credential = opts.token;
          } else if (opts.sso) {
            const seconds = Number(opts.ssoTimeout);
            if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
              throw new CliError('BAD_USAGE', '--sso-timeout is 1-3600 seconds');
            credential = await ssoSession(opts.url, opts.sso, seconds * 1000);
          } else {
            if (!opts.email)
              throw new CliError(
                'BAD_USAGE',
                'Give --token, --sso <provider>, or --email (and the password)',
              );
            const password = await passwordFrom(opts);
            if (opts.totpCode && opts.recoveryCode)
              throw new CliError('BAD_USAGE', 'Give one of --totp-code and --recovery-code');
            const anon = new ApiClient({ url: opts.url, credential: null });
            const first = await anon.rest<{ status: string; challenge?: string }>(
              '/api/auth/login',
              { email: opts.email, password },
            );
            let session = first.session;
            if (first.body.status === 'mfa_required') {
              const second = await anon.rest('/api/auth/login/verify', {
                challenge: first.body.challenge,
                ...(opts.recoveryCode
                  ? { recoveryCode: opts.recoveryCode }
                  : {
                      totpCode: await totpCodeFrom(
                        opts.totpCode,
                        new CliError(
                          'MFA_REQUIRED',
                          'This account uses MFA: add --totp-code CODE or --recovery-code CODE (or set SLIPWAY_TOTP_CODE)',
                        ),
                      ),
                    }),
              });
              session = second.session;
            }
            if (!session) throw new CliError('BAD_RESPONSE', 'The server set no session');
            credential = session;
          }
          const viewer = await whoami(new ApiClient({ url: opts.url, credential }));
          run.store.save(opts.name, opts.url, credential);
          run.out.ok(
            {
              context: opts.name,
              url: opts.url,
              authMethod: viewer.authMethod,
              principal: viewer.principal,
            },
            () =>
              `Logged in to ${opts.url} as ${viewer.principal.name} (${viewer.principal.role}, ${viewer.authMethod}); context "${opts.name}"`,
          );
        },
      ),
    );

  program
    .command('logout')
    .description('forget the stored credentials (and end the session on the server)')
    .action(
      action(async (run) => {
        const found = run.store.get(program.opts<{ context?: string }>().context);
        if (found && !found.context.credential.startsWith('slw_')) {
          await new ApiClient({ url: found.context.url, credential: found.context.credential })
            .rest('/api/auth/logout', {})
            .catch(() => undefined);
        }
        const { removed, current } = run.store.remove(found?.name);
        const now = current ? `; context "${current}" is now current` : '; no context is stored';
        run.out.ok({ context: removed, current }, () =>
          removed ? `Logged out of context "${removed}"${now}` : 'Nothing to log out of',
        );
      }),
    );

  program
    .command('whoami')
    .description('the identity behind the current credentials')
    .action(
      action(async (run) => {
        const v = await whoami(run.client());
        const data = {
          authMethod: v.authMethod,
          principal: v.principal,
          role: v.principal.role,
          scopes: v.scopes,
          token: v.token,
          session: v.session,
        };
        run.out.ok(data, () =>
          keyValues([
            ['principal', `${v.principal.name} (${v.principal.kind} ${v.principal.id})`],
            ['role', v.principal.role],
            ['auth', v.authMethod],
            [
              'token',
              v.token
                ? `${v.token.name} (${v.token.lane}, expires ${v.token.expiresAt ?? 'never'})`
                : null,
            ],
            ['scopes', v.scopes.join(' ')],
          ]),
        );
      }),
    );
}
