import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { auth } from '../api/auth';
import { AuthFrame } from '../components/auth-frame';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading } from '../components/page';

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/**
 * A new service has no account: the first to sign up becomes its owner. The page asks the
 * server whether that is still so, and after sign-up says which role the account got (another
 * browser may have been first).
 */
export function FirstRunPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [mismatch, setMismatch] = useState<string | null>(null);
  const [joinedAs, setJoinedAs] = useState<string | null>(null);
  const firstRun = useQuery({ queryKey: ['first-run'], queryFn: auth.firstRun });
  const signUp = useMutation({
    mutationFn: auth.signUp,
    onSuccess: ({ user }) => {
      queryClient.removeQueries();
      if (user.role === 'owner') navigate('/', { replace: true });
      else setJoinedAs(user.role);
    },
  });

  if (joinedAs) {
    return (
      <AuthFrame title="Account created">
        <p className="alert alert-info" role="status">
          Someone created the owner account first, so yours joined the team as a {joinedAs}. The
          owner can give you another role.
        </p>
        <Link href="/" className="button primary">
          Continue to the overview
        </Link>
      </AuthFrame>
    );
  }
  if (firstRun.isPending) {
    return (
      <AuthFrame title="Welcome to Slipway">
        <Loading what="the service's state" />
      </AuthFrame>
    );
  }
  if (firstRun.data?.ownerExists) {
    return (
      <AuthFrame title="Slipway is set up">
        <p>
          This service already has its owner. Log in with your account, or ask the owner to add you.
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
    if (text(form, 'password') !== text(form, 'confirm')) {
      setMismatch('The two passwords differ.');
      return;
    }
    setMismatch(null);
    signUp.mutate({
      name: text(form, 'name'),
      email: text(form, 'email'),
      password: text(form, 'password'),
    });
  };
  return (
    <AuthFrame title="Create the owner account">
      <p>
        Nobody has signed up yet. The first account is the team’s <strong>owner</strong>: it can do
        everything, including inviting and managing the others.
      </p>
      <FormError error={firstRun.error} />
      <form onSubmit={submit} noValidate>
        <FormError error={signUp.error} fields={['name', 'email', 'password']} />
        <Field
          name="name"
          label="Your name"
          autoComplete="name"
          required
          autoFocus
          error={signUp.error}
          hint="1 to 80 characters"
        />
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          error={signUp.error}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          error={signUp.error}
          hint="12 to 256 characters; a passphrase of several words is easiest"
        />
        <Field
          name="confirm"
          label="Password again"
          type="password"
          autoComplete="new-password"
          required
          problem={mismatch}
        />
        <SubmitButton pending={signUp.isPending}>Create the owner account</SubmitButton>
      </form>
    </AuthFrame>
  );
}
