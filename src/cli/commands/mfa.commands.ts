import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { passwordFrom, totpCodeFrom, type PasswordOptions } from '../user-input.js';
import { confirmedCall } from './confirmed-call.js';

const recoveryCodesText = (codes: string[]) =>
  `Recovery codes (each works once, shown only now; keep them apart from this device):\n${codes.map((c) => `  ${c}`).join('\n')}`;

export function registerMfaCommands(program: Command): void {
  const mfa = program.command('mfa').description('two-factor authentication and the team policy');
  mfa.command('status').action(
    action(async (run) => {
      const s = await run
        .client()
        .query<{ policy: string; setAt: string | null; caller: Record<string, unknown> }>(
          'accountSecurityStatus',
        );
      run.out.ok(s, () =>
        keyValues([['policy', s.policy], ['set at', s.setAt], ...Object.entries(s.caller)]),
      );
    }),
  );
  mfa
    .command('enrol')
    .description('start two-factor enrolment: a QR code for the authenticator, then its code')
    .option('--password <password>', 'your password (visible in shell history: prefer a prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .action(
      action(async (run, opts: PasswordOptions) => {
        const client = run.client();
        const password = await passwordFrom(opts);
        const started = await client.mutation<{ otpauthUri: string; secret: string }>(
          'startMfaEnrollment',
          { password },
        );
        // Loaded only here: no other command draws a QR code.
        const { default: QRCode } = await import('qrcode');
        const qr = run.out.json
          ? ''
          : await QRCode.toString(started.otpauthUri, { type: 'utf8', errorCorrectionLevel: 'L' });
        run.out.ok({ ...started, next: 'slipway mfa confirm --totp-code CODE' }, () =>
          [
            'Scan this with an authenticator app (or type the secret into it):',
            qr,
            `secret  ${started.secret}`,
            `uri     ${started.otpauthUri}`,
          ].join('\n'),
        );
        // On a terminal, finish here; anywhere else the code comes in a second command.
        if (run.out.json || !process.stdin.isTTY) {
          run.out.progress('Then run: slipway mfa confirm --totp-code CODE');
          return;
        }
        const code = await totpCodeFrom(undefined);
        const done = await client.mutation<{ recoveryCodes: string[] }>('confirmMfaEnrollment', {
          code,
        });
        run.out.ok(
          done,
          () => `Two-factor authentication is on.\n${recoveryCodesText(done.recoveryCodes)}`,
        );
      }),
    );
  mfa
    .command('confirm')
    .description('finish enrolment with a code from the new secret; prints the recovery codes')
    .option('--totp-code <code>', 'the 6-digit code (else SLIPWAY_TOTP_CODE or a prompt)')
    .action(
      action(async (run, opts: { totpCode?: string }) => {
        const code = await totpCodeFrom(opts.totpCode);
        const done = await run
          .client()
          .mutation<{ recoveryCodes: string[] }>('confirmMfaEnrollment', { code });
        run.out.ok(
          done,
          () => `Two-factor authentication is on.\n${recoveryCodesText(done.recoveryCodes)}`,
        );
      }),
    );
  mfa
    .command('recovery-codes')
    .description('replace the recovery codes (a current code is needed); the old ones stop working')
    .option('--totp-code <code>', 'the 6-digit code (else SLIPWAY_TOTP_CODE or a prompt)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, opts: { totpCode?: string; yes?: boolean }) => {
        await confirm(opts.yes, 'Replace your recovery codes (the old ones stop working)');
        const code = await totpCodeFrom(opts.totpCode);
        const done = await run
          .client()
          .mutation<{ recoveryCodes: string[] }>('rotateRecoveryCodes', { code });
        run.out.ok(done, () => recoveryCodesText(done.recoveryCodes));
      }),
    );
  mfa
    .command('disable')
    .description('turn two-factor authentication off (password and a current code)')
    .option('--password <password>', 'your password (visible in shell history: prefer a prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--totp-code <code>', 'the 6-digit code (else SLIPWAY_TOTP_CODE or a prompt)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, opts: PasswordOptions & { totpCode?: string; yes?: boolean }) => {
        await confirm(opts.yes, 'Turn two-factor authentication off');
        const password = await passwordFrom(opts);
        const code = await totpCodeFrom(opts.totpCode);
        const done = await run.client().mutation('disableMfa', { password, code });
        run.out.ok(done, () => 'Two-factor authentication is off');
      }),
    );
  const policy = mfa.command('policy').description('the team MFA policy');
  policy.command('get').action(
    action(async (run) => {
      const s = await run
        .client()
        .query<{ policy: string; setAt: string | null; setBy: string | null }>(
          'accountSecurityStatus',
        );
      const data = { policy: s.policy, setAt: s.setAt, setBy: s.setBy };
      run.out.ok(
        data,
        () => `${s.policy} (set ${s.setAt ?? 'never'}${s.setBy ? ` by ${s.setBy}` : ''})`,
      );
    }),
  );
  confirmedCall(policy, {
    command: 'set <policy>',
    description: 'optional, privileged or all',
    ask: (value) => `Set the team MFA policy to ${value}`,
    call: (client, value) =>
      client.mutation<{ policy: string; changed: boolean }>('updateAccountSecurityPolicy', {
        policy: value,
      }),
    said: (result) => `MFA policy is ${result.policy}${result.changed ? '' : ' (unchanged)'}`,
  });
}
