import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Confirm } from '../components/confirm';
import type { ProcedureInputs } from '../api/contract';
import { Done, SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';

type Invite = AnswerOf<'invites'>['items'][number];
type Role = ProcedureInputs['inviteMember']['role'];
const ROLES: Role[] = ['viewer', 'operator', 'admin', 'owner'];

function InviteForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [days, setDays] = useState('7');
  const invite = useMutation({
    mutationFn: () =>
      mutate('inviteMember', { email, role, ...(days ? { expiresInDays: Number(days) } : {}) }),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: ['invites'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Invite a member" noValidate>
      <Field
        name="email"
        label="Email of the person to invite"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={invite.error}
        required
      />
      <SelectField
        name="role"
        label="Role"
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
        options={ROLES.map((r) => ({ value: r, label: r }))}
        hint="Never above your own role."
        error={invite.error}
      />
      <Field
        name="expiresInDays"
        label="Valid for (days, 1-30)"
        type="number"
        min={1}
        max={30}
        value={days}
        onChange={(e) => setDays(e.target.value)}
        error={invite.error}
      />
      <FormError error={invite.error} fields={['email', 'role', 'expiresInDays']} />
      <SubmitButton pending={invite.isPending}>Send the invite</SubmitButton>
      {invite.data && (
        <div className="after-form">
          <Done>
            <p>
              Invite mailed to {invite.data.email} as {invite.data.role}. The link is in their
              mailbox only; it works once, until <When at={invite.data.expiresAt} />.
            </p>
          </Done>
        </div>
      )}
    </form>
  );
}

function InviteRow({ invite }: { invite: Invite }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const revoke = useMutation({
    mutationFn: () => mutate('revokeInvite', { inviteId: invite.inviteId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['invites'] }),
  });
  const who = invite.email ?? 'erased address';
  return (
    <tr>
      <td data-label="Email">{who}</td>
      <td data-label="Role">{invite.role}</td>
      <td data-label="Status">
        <StatusBadge status={invite.status} />
      </td>
      <td data-label="Expires">
        <When at={invite.expiresAt} />
      </td>
      <td data-label="">
        {can('revokeInvite') &&
          invite.status === 'pending' &&
          (asking ? (
            <Confirm
              question={`Revoke the invite of ${who}?`}
              pending={revoke.isPending}
              onConfirm={() => revoke.mutate()}
              onKeep={() => setAsking(false)}
            >
              Yes, revoke it
            </Confirm>
          ) : (
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              Revoke the invite of {who}…
            </button>
          ))}
        <FormError error={revoke.error} />
      </td>
    </tr>
  );
}

/** Invites: sent by mail (the link is never shown here), listed with their status, revocable. */
export function InvitesSection() {
  const can = useCan();
  const invites = useQuery({
    queryKey: ['invites'],
    queryFn: () => query('invites', { limit: 100 }),
  });
  return (
    <section className="card" aria-labelledby="invites-title">
      <h2 id="invites-title">Invites</h2>
      {can('inviteMember') && <InviteForm />}
      {invites.isPending ? (
        <p role="status">Loading invites…</p>
      ) : invites.isError ? (
        <FormError error={invites.error} />
      ) : invites.data.items.length === 0 ? (
        <p className="muted">No invite yet: invite someone by email above.</p>
      ) : (
        <div className="table-scroll after-form">
          <table className="table stack" aria-label="Invites">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invites.data.items.map((i) => (
                <InviteRow key={i.inviteId} invite={i} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
