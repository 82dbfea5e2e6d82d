import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { auth } from '../api/auth';
import { ApiError } from '../api/errors';
import { AuthFrame } from '../components/auth-frame';
import { Field, FormError, SubmitButton } from '../components/form';
import { ResetLinkForm } from './forgot-password';

/**
 * Where the mailed link lands (through `GET /api/auth/reset-password`): with `?token=` a new
 * password is set; with `?error=INVALID_TOKEN` the link was unknown, used or expired, and a new
 * one can be asked for here.
 */
export function ResetPasswordPage() {
  const params = new URLSearchParams(useSearch());
  const token = params.get('token');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: auth.resetPassword });

  const linkDied =
    reset.error instanceof ApiError &&
    reset.error.code === 'BAD_REQUEST' &&
    !reset.error.issues.some((i) => i.path === 'newPassword');

  if (params.get('error') === 'INVALID_TOKEN' || !token || linkDied) {
    return (
      <AuthFrame title="This reset link does not work">
        <p>
          {token || params.get('error')
            ? 'The link is unknown, was used already, or is more than 30 minutes old. Each link works once.'
            : 'Open the link from the reset email to set a new password.'}{' '}
          Ask for a new link:
        </p>
        <ResetLinkForm label="Send a new link" />
        <div className="auth-links">
          <Link href="/login">Back to the login</Link>
        </div>
      </AuthFrame>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthFrame title="Password changed">
        <p className="alert alert-info" role="status">
          Your new password is set. Every session of your account was signed out, on every device.
        </p>
        <Link href="/login" className="button primary">
          Log in
        </Link>
      </AuthFrame>
    );
  }

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const newPassword = String(form.get('newPassword') ?? '');
    if (newPassword !== String(form.get('confirm') ?? '')) {
      setMismatch('The two passwords differ.');
      return;
    }
    setMismatch(null);
    reset.mutate({ token, newPassword });
  };
  return (
    <AuthFrame title="Set a new password">
      <form onSubmit={submit} noValidate>
        <FormError error={reset.error} fields={['newPassword']} />
        <Field
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
          error={reset.error}
          hint="12 to 256 characters"
        />
        <Field
          name="confirm"
          label="New password again"
          type="password"
          autoComplete="new-password"
          required
          problem={mismatch}
        />
        <SubmitButton pending={reset.isPending}>Set the new password</SubmitButton>
      </form>
    </AuthFrame>
  );
}
