import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Done } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading, Page } from '../components/page';
import { RecoveryCodes } from '../components/recovery-codes';
import { When } from '../components/time';
import { MFA_PAGE } from '../query-client';
import { SingleSignOn } from './single-sign-on';

type Policy = ProcedureInputs['updateAccountSecurityPolicy']['policy'];
const POLICIES: { value: Policy; label: string; detail: string }[] = [
  { value: 'optional', label: 'Optional', detail: 'Each person decides.' },
  {
    value: 'privileged',
    label: 'Required for owners, admins and operators',
    detail: 'Viewers may go without.',
  },
  { value: 'all', label: 'Required for everyone', detail: 'Every human account.' },
];

function TeamPolicy({ current, enrolled }: { current: Policy; enrolled: boolean }) {
  const queryClient = useQueryClient();
  const [policy, setPolicy] = useState<Policy>(current);
  const save = useMutation({
    mutationFn: () => mutate('updateAccountSecurityPolicy', { policy }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['accountSecurityStatus'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="policy-title">
      <h2 id="policy-title">Team MFA policy</h2>
      <FormError error={save.error} fields={['policy']} />
      {save.isSuccess && (
        <Done>The policy is now “{policy}”; it applies to every session at once.</Done>
      )}
      <fieldset className="radio-group">
        <legend className="visually-hidden">Who needs two-factor authentication</legend>
        {POLICIES.map((p) => (
          <label key={p.value} className="check">
            <input
              type="radio"
              name="policy"
              value={p.value}
              checked={policy === p.value}
              onChange={() => setPolicy(p.value)}
            />
            <span>
              {p.label} <span className="muted small">{p.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {!enrolled && policy !== 'optional' && (
        <p className="alert alert-warning">
          You have no second factor yet: this policy holds your own account back too until you{' '}
          <Link href={MFA_PAGE}>turn it on</Link>.
        </p>
      )}
      <SubmitButton pending={save.isPending}>Save the policy</SubmitButton>
    </form>
  );
}

function RotateCodes() {
  const rotate = useMutation({
    mutationFn: (code: string) => mutate('rotateRecoveryCodes', { code }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    rotate.mutate(String(new FormData(e.currentTarget).get('code') ?? '').replace(/\s+/g, ''));
  };
  if (rotate.data) {
    return (
      <section className="card" aria-labelledby="codes-title">
        <h2 id="codes-title">New recovery codes</h2>
        <p className="alert alert-warning" role="status">
          The old codes no longer work. These are shown only now: download or copy them.
        </p>
        <RecoveryCodes codes={rotate.data.recoveryCodes} />
      </section>
    );
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="codes-title" noValidate>
      <h2 id="codes-title">Recovery codes</h2>
      <p className="small">
        A code from your authenticator buys ten new codes; the old set stops working.
      </p>
      <FormError error={rotate.error} fields={['code']} />
      <Field
        name="code"
        label="Code from the authenticator"
        autoComplete="one-time-code"
        inputMode="numeric"
        error={rotate.error}
      />
      <SubmitButton pending={rotate.isPending}>New recovery codes</SubmitButton>
    </form>
  );
}

function DisableMfa() {
  const queryClient = useQueryClient();
  const disable = useMutation({
    mutationFn: (input: { password: string; code: string }) => mutate('disableMfa', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['accountSecurityStatus'] }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    disable.mutate({
      password: String(form.get('password') ?? ''),
      code: String(form.get('code') ?? '').replace(/\s+/g, ''),
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="disable-title" noValidate>
      <h2 id="disable-title">Turn two-factor authentication off</h2>
      <FormError error={disable.error} fields={['password', 'code']} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={disable.error}
      />
      <Field
        name="code"
        label="Code"
        autoComplete="one-time-code"
        inputMode="numeric"
        error={disable.error}
      />
      <SubmitButton pending={disable.isPending}>Turn off</SubmitButton>
    </form>
  );
}

/**
 * Your second factor (recovery codes, off); for owners and admins the team's MFA policy, and for
 * owners the identity providers of single sign-on.
 */
export function SecurityPage() {
  const can = useCan();
  const status = useQuery({
    queryKey: ['accountSecurityStatus'],
    queryFn: () => query('accountSecurityStatus'),
  });
  if (status.isPending) {
    return (
      <Page title="Security settings">
        <Loading what="your security settings" />
      </Page>
    );
  }
  if (status.isError) {
    return (
      <Page title="Security settings">
        <FormError error={status.error} />
      </Page>
    );
  }
  const { policy, caller, setAt, ssoRequired } = status.data;
  return (
    <Page title="Security settings">
      <section className="card" aria-labelledby="you-title">
        <h2 id="you-title">Your account</h2>
        {caller.enrolled ? (
          <p>
            Two-factor authentication is on since <When at={caller.enrolledAt} />;{' '}
            {caller.recoveryCodesRemaining} recovery codes left.
          </p>
        ) : (
          <p>
            Two-factor authentication is off. <Link href={MFA_PAGE}>Turn it on</Link> (a QR code for
            your authenticator app).
          </p>
        )}
        <p className="small muted">
          Team policy: <strong>{policy}</strong>
          {setAt && (
            <>
              , since <When at={setAt} />
            </>
          )}
          .
        </p>
      </section>
      {caller.enrolled && <RotateCodes />}
      {caller.enrolled && <DisableMfa />}
      {can('updateAccountSecurityPolicy') && (
        <TeamPolicy current={policy} enrolled={caller.enrolled} />
      )}
      {can('configureIdentityProvider') && <SingleSignOn ssoRequired={ssoRequired} />}
    </Page>
  );
}
