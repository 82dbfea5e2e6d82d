import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { auth } from '../api/auth';
import { mutate, query } from '../api/client';
import { safeReturnTo } from '../auth/return-to';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading, Page } from '../components/page';
import { RecoveryCodes } from '../components/recovery-codes';
import { When } from '../components/time';

/** The QR code is drawn here, in the browser, from the otpauth URI; the library loads on demand. */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' }).then((url) => {
        if (live) setSrc(url);
      }),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <img
      className="qr"
      src={src}
      width={200}
      height={200}
      alt="QR code to scan with your authenticator app"
    />
  ) : (
    <div className="qr qr-placeholder" role="status">
      Drawing the QR code…
    </div>
  );
}

const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Turning on two-factor authentication: the password again, then the secret (QR code and text)
 * for the authenticator, a code from it to confirm, and the ten recovery codes, shown once.
 * Reached from the navigation, or sent here when the team's policy requires it (MFA_REQUIRED).
 */
export function MfaPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const returnTo = safeReturnTo(
    new URLSearchParams(useSearch()).get('returnTo'),
    window.location.origin,
  );
  const status = useQuery({
    queryKey: ['accountSecurityStatus'],
    queryFn: () => query('accountSecurityStatus'),
  });
  const start = useMutation({
    mutationFn: (password: string) => mutate('startMfaEnrollment', { password }),
  });
  const confirm = useMutation({
    mutationFn: (code: string) => mutate('confirmMfaEnrollment', { code }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['accountSecurityStatus'] }),
  });
  const [saved, setSaved] = useState(false);

  if (status.isPending)
    return (
      <Page title="Two-factor authentication">
        <Loading what="your security settings" />
      </Page>
    );
  if (status.isError)
    return (
      <Page title="Two-factor authentication">
        <FormError error={status.error} />
      </Page>
    );
  const { policy, caller } = status.data;

  if (confirm.isSuccess) {
    const codes = confirm.data.recoveryCodes;
    // A session started before enrolment does not satisfy a policy that requires the second factor.
    const loginAgain = caller.required && !caller.sessionMfaVerified;
    const next = async () => {
      if (loginAgain) {
        await auth.logOut();
        queryClient.removeQueries();
        navigate(`/login?returnTo=${encodeURIComponent(returnTo ?? '/')}`, { replace: true });
      } else {
        queryClient.removeQueries();
        navigate(returnTo ?? '/', { replace: true });
      }
    };
    return (
      <Page title="Save your recovery codes" narrow>
        <p className="alert alert-info" role="status">
          Two-factor authentication is on. If you lose the authenticator, each of these codes lets
          you log in once. They are shown only now: download or copy them to a safe place.
        </p>
        <RecoveryCodes codes={codes} />
        <label className="check">
          <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} /> I
          have saved these codes
        </label>
        {loginAgain && (
          <p>Your team’s policy wants a session started with a code: log in again to continue.</p>
        )}
        <button
          type="button"
          className="button primary"
          disabled={!saved}
          onClick={() => void next()}
        >
          {loginAgain ? 'Log in again' : 'Continue'}
        </button>
      </Page>
    );
  }

  if (caller.enrolled && !start.isSuccess) {
    return (
      <Page title="Two-factor authentication" narrow>
        <p className="alert alert-info">
          Two-factor authentication is on for your account since <When at={caller.enrolledAt} />.{' '}
          {caller.recoveryCodesRemaining} recovery code
          {caller.recoveryCodesRemaining === 1 ? '' : 's'} left.
        </p>
        <p>
          New recovery codes, turning it off and the team’s policy:{' '}
          <Link href="/settings/security">Security settings</Link>.
        </p>
      </Page>
    );
  }

  const submitPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    start.mutate(String(new FormData(e.currentTarget).get('password') ?? ''));
  };
  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    confirm.mutate(String(new FormData(e.currentTarget).get('code') ?? '').replace(/\s+/g, ''));
  };
  return (
    <Page title="Turn on two-factor authentication" narrow>
      {caller.required && (
        <p className="alert alert-warning" role="alert">
          Your team requires two-factor authentication (policy <code>{policy}</code>) before you can
          use Slipway. It takes a minute, with an authenticator app on your phone.
        </p>
      )}
      {!start.isSuccess ? (
        <form onSubmit={submitPassword} noValidate>
          <p>Enter your password again to begin.</p>
          <FormError error={start.error} fields={['password']} />
          <Field
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus
            error={start.error}
          />
          <SubmitButton pending={start.isPending}>Continue</SubmitButton>
        </form>
      ) : (
        <form onSubmit={submitCode} noValidate>
          <ol className="steps">
            <li>
              <p>Scan this QR code with an authenticator app (any app for TOTP codes).</p>
              <QrCode uri={start.data.otpauthUri} />
              <p>
                Or type this key into it:{' '}
                <code className="secret" aria-label="Secret key">
                  {grouped(start.data.secret)}
                </code>
              </p>
            </li>
            <li>
              <p>Enter the 6-digit code the app now shows for Slipway.</p>
              <FormError error={confirm.error} fields={['code']} />
              <Field
                name="code"
                label="Code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                autoFocus
                error={confirm.error}
              />
            </li>
          </ol>
          <SubmitButton pending={confirm.isPending}>Turn on</SubmitButton>
        </form>
      )}
    </Page>
  );
}
