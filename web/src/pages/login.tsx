import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { auth, ssoStartUrl } from '../api/auth';
import { ApiError } from '../api/errors';
import { safeReturnTo } from '../auth/return-to';
import { ssoErrorMessage } from '../auth/sso-errors';
import { AuthFrame } from '../components/auth-frame';
import { Field, FormError, SubmitButton } from '../components/form';

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/**
 * Email and password; then, for an account with two-factor authentication, a code from the
 * authenticator or one of the recovery codes. Afterwards back to `returnTo` when it is a page of
 * this site, else to the overview. With no account yet, the first-run page instead.
 */
export function LoginPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const returnTo = safeReturnTo(
    new URLSearchParams(search).get('returnTo'),
    window.location.origin,
  );
  const ssoError = ssoErrorMessage(new URLSearchParams(search).get('sso_error'));
  const [challenge, setChallenge] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);

  const firstRun = useQuery({ queryKey: ['first-run'], queryFn: auth.firstRun });
  const sso = useQuery({ queryKey: ['sso-providers'], queryFn: auth.ssoProviders });
  const providers = sso.data?.providers ?? [];
  useEffect(() => {
    if (firstRun.data?.ownerExists === false) navigate('/setup', { replace: true });
  }, [firstRun.data, navigate]);

  const signedIn = () => {
    queryClient.removeQueries();
    navigate(returnTo ?? '/', { replace: true });
  };
  const login = useMutation({
    mutationFn: auth.logIn,
    onSuccess: (answer) => {
      if (answer.status === 'mfa_required') setChallenge(answer.challenge);
      else signedIn();
    },
  });
  const verify = useMutation({ mutationFn: auth.verify, onSuccess: signedIn });

  const submitPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    login.mutate({ email: text(form, 'email'), password: text(form, 'password') });
  };
  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = text(new FormData(e.currentTarget), 'code').replace(/\s+/g, '');
    verify.mutate(
      recovery
        ? { challenge: challenge!, recoveryCode: code }
        : { challenge: challenge!, totpCode: code },
    );
  };
  const startOver = () => {
    setChallenge(null);
    setRecovery(false);
    verify.reset();
    login.reset();
  };

  if (challenge !== null) {
    const refused = verify.error instanceof ApiError && verify.error.code === 'INVALID_CREDENTIALS';
    return (
      <AuthFrame title="Two-factor authentication">
        <form onSubmit={submitCode} noValidate>
          <p>
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned two-factor authentication on. Each works once.'
              : 'Enter the 6-digit code your authenticator app shows for Slipway.'}
          </p>
          {verify.error && !refused && <FormError error={verify.error} fields={['code']} />}
          <Field
            key={recovery ? 'recovery' : 'totp'}
            name="code"
            label={recovery ? 'Recovery code' : 'Code'}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            pattern={recovery ? undefined : '[0-9 ]*'}
            spellCheck={false}
            autoFocus
            required
            problem={
              refused
                ? recovery
                  ? 'That recovery code was not accepted: it may be mistyped or already used.'
                  : 'That code was not accepted. Codes change every 30 seconds and work once: try the next one.'
                : null
            }
          />
          <SubmitButton pending={verify.isPending}>Verify</SubmitButton>
        </form>
        <div className="auth-links">
          <button type="button" className="link-button" onClick={() => setRecovery(!recovery)}>
            {recovery ? 'Use a code from the authenticator instead' : 'Use a recovery code instead'}
          </button>
          <button type="button" className="link-button" onClick={startOver}>
            Start over
          </button>
        </div>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title="Log in">
      {returnTo && returnTo !== '/' && (
        <p className="muted">Log in to continue to the page you asked for.</p>
      )}
      {ssoError && (
        <p className="alert alert-error" role="alert">
          {ssoError}
        </p>
      )}
      {providers.length > 0 && (
        <div className="sso-buttons">
          {providers.map((p) => (
            <a key={p.providerId} className="button" href={ssoStartUrl(p.providerId, returnTo)}>
              Sign in with {p.displayName}
            </a>
          ))}
          <p className="muted small or-line">or with email and password</p>
        </div>
      )}
      <form onSubmit={submitPassword} noValidate>
        <FormError error={login.error} fields={['email', 'password']} />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          error={login.error}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          error={login.error}
        />
        <SubmitButton pending={login.isPending}>Log in</SubmitButton>
      </form>
      <div className="auth-links">
        <Link href="/forgot-password">Forgot your password?</Link>
      </div>
    </AuthFrame>
  );
}
