import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'wouter';
import { auth } from '../api/auth';
import { AuthFrame } from '../components/auth-frame';
import { Field, FormError, SubmitButton } from '../components/form';

/** Asks for a reset link. The answer is the same whether or not the email has an account. */
export function ResetLinkForm({ label = 'Send a reset link' }: { label?: string }) {
  const request = useMutation({ mutationFn: auth.requestReset });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    request.mutate({ email: String(new FormData(e.currentTarget).get('email') ?? '') });
  };
  if (request.isSuccess) {
    return (
      <div className="alert alert-info" role="status">
        <p>{request.data.message}</p>
        <p>
          The link works once, for 30 minutes. Nothing arrived? Look in the spam folder, or ask
          again in a few minutes.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <FormError error={request.error} fields={['email']} />
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        autoFocus
        error={request.error}
      />
      <SubmitButton pending={request.isPending}>{label}</SubmitButton>
    </form>
  );
}

export function ForgotPasswordPage() {
  return (
    <AuthFrame title="Reset your password">
      <p>
        Enter the email of your account. If it has one, a link to set a new password is mailed to
        it.
      </p>
      <ResetLinkForm />
      <div className="auth-links">
        <Link href="/login">Back to the login</Link>
      </div>
    </AuthFrame>
  );
}
