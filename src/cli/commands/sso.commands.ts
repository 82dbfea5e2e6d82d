import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { collect } from '../option-values.js';
import { columnTable } from '../output.js';
import { stdinFirstLine } from '../user-input.js';
import { confirmedCall } from './confirmed-call.js';

interface ProviderView {
  providerId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  allowedDomains: string[];
  roleMapping: {
    claim: string | null;
    rules: { value: string; role: string }[];
    defaultRole: string | null;
  };
  trustProviderMfa: boolean;
  enabled: boolean;
}

interface SetOptions {
  name: string;
  issuer: string;
  clientId: string;
  clientSecretStdin?: boolean;
  domain: string[];
  roleClaim?: string;
  rule: string[];
  defaultRole?: string;
  trustMfa?: boolean;
  disabled?: boolean;
}

/** `value=role`, as `--rule` takes it. */
function ruleOf(text: string): { value: string; role: string } {
  const at = text.lastIndexOf('=');
  if (at <= 0) throw new CliError('BAD_USAGE', `--rule is value=role, e.g. platform-admins=admin`);
  return { value: text.slice(0, at), role: text.slice(at + 1) };
}

/** Single sign-on: the identity providers (owners) and the "SSO required" policy. */
export function registerSsoCommands(program: Command): void {
  const sso = program
    .command('sso')
    .description('single sign-on: OpenID Connect identity providers and the SSO policy');

  sso
    .command('providers')
    .description('the configured identity providers (never their secrets)')
    .action(
      action(async (run) => {
        const list = await run
          .client()
          .query<{ redirectUri: string; providers: ProviderView[] }>('identityProviders');
        run.out.ok(
          list,
          () =>
            `Redirect URI to register at each provider: ${list.redirectUri}\n${columnTable(
              list.providers,
              [
                ['id', (p) => p.providerId],
                ['name', (p) => p.displayName],
                ['issuer', (p) => p.issuer],
                ['domains', (p) => p.allowedDomains.join(' ') || 'invites only'],
                [
                  'roles',
                  (p) =>
                    p.roleMapping.claim
                      ? `${p.roleMapping.claim}: ${p.roleMapping.rules.map((r) => `${r.value}=${r.role}`).join(' ')}; else ${p.roleMapping.defaultRole ?? 'refused'}`
                      : 'set by people',
                ],
                ['MFA trusted', (p) => (p.trustProviderMfa ? 'yes' : 'no')],
                ['on', (p) => (p.enabled ? 'yes' : 'no')],
              ],
            )}`,
        );
      }),
    );

  sso
    .command('set <providerId>')
    .description('add or change a provider (the client secret is read from standard input)')
    .requiredOption('--name <name>', 'the name on the sign-in page')
    .requiredOption('--issuer <url>', "the provider's issuer URL")
    .requiredOption('--client-id <id>', 'the client id registered at the provider')
    .option('--client-secret-stdin', 'read the client secret from standard input (first line)')
    .option('--domain <domain>', 'an email domain that may join without an invite', collect, [])
    .option('--role-claim <claim>', 'the claim whose values give roles, e.g. groups')
    .option('--rule <value=role>', 'a claim value and the role it gives', collect, [])
    .option('--default-role <role>', 'the role when no rule matches (default: refuse)')
    .option('--trust-mfa', "count the provider's two-factor sign-in toward the MFA policy")
    .option('--disabled', 'configure it without offering it yet')
    .action(
      action(async (run, providerId: string, opts: SetOptions) => {
        const clientSecret = opts.clientSecretStdin ? await stdinFirstLine() : undefined;
        const done = await run
          .client()
          .mutation<{ providerId: string; changed: boolean }>('configureIdentityProvider', {
            providerId,
            displayName: opts.name,
            issuer: opts.issuer,
            clientId: opts.clientId,
            ...(clientSecret ? { clientSecret } : {}),
            allowedDomains: opts.domain,
            ...(opts.roleClaim ? { roleClaim: opts.roleClaim } : {}),
            ...(opts.rule.length > 0 ? { roleRules: opts.rule.map(ruleOf) } : {}),
            ...(opts.defaultRole ? { defaultRole: opts.defaultRole } : {}),
            trustProviderMfa: opts.trustMfa === true,
            enabled: opts.disabled !== true,
          });
        run.out.ok(
          done,
          () => `Provider ${done.providerId} ${done.changed ? 'saved' : 'unchanged'}`,
        );
      }),
    );

  confirmedCall(sso, {
    command: 'remove <providerId>',
    description: 'stop sign-ins through a provider (its sessions run until they end)',
    ask: (providerId) => `Remove identity provider ${providerId}`,
    call: (client, providerId) => client.mutation('removeIdentityProvider', { providerId }),
    said: (_, providerId) => `Provider ${providerId} removed`,
  });

  sso
    .command('require <on|off>')
    .description('require humans to sign in through a provider (owners keep break-glass)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, value: string, opts: { yes?: boolean }) => {
        if (value !== 'on' && value !== 'off') throw new CliError('BAD_USAGE', 'Say on or off');
        await confirm(opts.yes, `Turn "single sign-on required" ${value}`);
        const done = await run
          .client()
          .mutation<{ required: boolean; changed: boolean }>('updateSsoPolicy', {
            required: value === 'on',
          });
        run.out.ok(
          done,
          () =>
            `Single sign-on is ${done.required ? 'required' : 'optional'}${done.changed ? '' : ' (unchanged)'}`,
        );
      }),
    );
}
