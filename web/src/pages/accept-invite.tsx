import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { auth } from '../api/auth';
import { ApiError } from '../api/errors';
import { AuthFrame } from '../components/auth-frame';
import { Field, FormError, SubmitButton } from '../components/form';

/**
 * Where the mailed invite lands (through `GET /api/auth/invite`): with `?token=` the invited
 * person chooses a name and password and is signed in with the invite's role; with
 * `?error=INVALID_TOKEN` the link was unknown, used, revoked or expired.
 */
export function AcceptInvitePage() {
  const params = new URLSearchParams(useSearch());
  const token = params.get('token');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const accept = useMutation({ mutationFn: auth.acceptInvite });

  const linkDied =
    accept.error instanceof ApiError &&
    accept.error.code === 'BAD_REQUEST' &&
    accept.error.issues.some((i) => i.path === 'token');

  if (params.get('error') === 'INVALID_TOKEN' || !token || linkDied) {
    return (
      <AuthFrame title="This invite link does not work">
        <p>
          The link is unknown, was used already, was withdrawn or has expired. Each invite works
          once: ask whoever invited you for a new one.
        </p>
        <div className="auth-links">
          <Link href="/login">Go to the login</Link>
        </div>
      </AuthFrame>
    );
  }
  if (accept.isSuccess) {
    return (
      <AuthFrame title="Welcome to Slipway">
        <p className="alert alert-info" role="status">
          Your account {accept.data.user.email} is ready, as {accept.data.user.role}, and you are
          signed in.
        </p>
        <a href="/" className="button primary">
          Open the dashboard
        </a>
      </AuthFrame>
    );
  }

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('confirm') ?? '')) {
      setMismatch('The two passwords differ.');
      return;
    }
    setMismatch(null);
    accept.mutate({ token, password, name: String(form.get('name') ?? '') });
  };
  return (
    <AuthFrame title="Join your team on Slipway">
      <form onSubmit={submit} noValidate>
        <FormError error={accept.error} fields={['name', 'password']} />
        <Field
          name="name"
          label="Your name"
          autoComplete="name"
          required
          autoFocus
          error={accept.error}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          error={accept.error}
          hint="12 to 256 characters"
        />
        <Field
          name="confirm"
          label="Password again"
          type="password"
          autoComplete="new-password"
          required
          problem={mismatch}
        />
        <SubmitButton pending={accept.isPending}>Create my account</SubmitButton>
      </form>
    </AuthFrame>
  );
}
