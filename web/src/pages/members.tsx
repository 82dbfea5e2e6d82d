import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { InvitesSection } from './invites';

type Member = AnswerOf<'members'>['items'][number];
type Role = ProcedureInputs['changeUserRole']['role'];
const ROLES: Role[] = ['owner', 'admin', 'operator', 'viewer'];

function MemberRow({ member, self }: { member: Member; self: boolean }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [role, setRole] = useState(member.role as Role);
  const [confirm, setConfirm] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['members'] });
  const change = useMutation({
    mutationFn: () => mutate('changeUserRole', { userId: member.id, role }),
    onSuccess: refresh,
  });
  const deactivate = useMutation({
    mutationFn: () => mutate('deactivateUser', { userId: member.id }),
    onSuccess: refresh,
  });
  const active = member.status === 'active';
  const selectId = `role-${member.id}`;
  return (
    <tr>
      <td data-label="Name">
        {member.name}
        {self && <span className="muted"> (you)</span>}
        <br />
        <span className="muted small">{member.email}</span>
      </td>
      <td data-label="Role">
        {can('changeUserRole') && active && !self ? (
          <div className="inline-form">
            <label htmlFor={selectId} className="visually-hidden">
              Role of {member.name}
            </label>
            <select id={selectId} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            {role !== member.role && (
              <button
                type="button"
                className="button"
                disabled={change.isPending}
                onClick={() => change.mutate()}
              >
                Save the role of {member.name}
              </button>
            )}
          </div>
        ) : (
          member.role
        )}
      </td>
      <td data-label="Status">
        <StatusBadge status={member.status} />
      </td>
      <td data-label="Joined">
        <When at={member.createdAt} />
      </td>
      <td data-label="">
        {can('deactivateUser') &&
          active &&
          !self &&
          (confirm ? (
            <div className="button-row">
              <button
                type="button"
                className="button danger"
                disabled={deactivate.isPending}
                onClick={() => deactivate.mutate()}
              >
                Yes, deactivate {member.name}
              </button>
              <button type="button" className="button" onClick={() => setConfirm(false)}>
                Keep
              </button>
            </div>
          ) : (
            <button type="button" className="button danger" onClick={() => setConfirm(true)}>
              Deactivate {member.name}…
            </button>
          ))}
        <FormError error={change.error ?? deactivate.error} />
      </td>
    </tr>
  );
}

/** The team: roles and status; owners and admins change roles and deactivate (never upward). */
export function MembersPage() {
  const can = useCan();
  const viewer = useQuery({ queryKey: ['viewer'], queryFn: () => query('viewer') });
  const members = useQuery({
    queryKey: ['members'],
    queryFn: () => query('members', { limit: 100 }),
  });
  return (
    <Page title="Members">
      {members.isPending ? (
        <Loading what="members" />
      ) : members.isError ? (
        <FormError error={members.error} />
      ) : members.data.items.length === 0 ? (
        <EmptyState title="No member.">
          <p>
            People join by signing up (<code>POST /api/auth/sign-up</code>) and start as viewers; an
            owner or admin then gives them a role here.
          </p>
        </EmptyState>
      ) : (
        <section className="card">
          <p className="muted small">
            Invite new members below, or let them sign up (they start as viewers); change roles
            here.
          </p>
          <div className="table-scroll">
            <table className="table stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.data.items.map((m) => (
                  <MemberRow key={m.id} member={m} self={m.id === viewer.data?.principal.id} />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {can('invites') && <InvitesSection />}
    </Page>
  );
}
