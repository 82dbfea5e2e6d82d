import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Field, FormError, SubmitButton } from '../components/form';
import { SecretOnce } from '../components/secret-once';
import { StatusBadge } from '../components/status';
import { exactTime, When } from '../components/time';

type Token = AnswerOf<'tokens'>['items'][number];

function TokenRow({ token }: { token: Token }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [overlap, setOverlap] = useState('60');
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['tokens'] });
  const revoke = useMutation({
    mutationFn: () => mutate('revokeToken', { tokenId: token.tokenId }),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () =>
      mutate('rotateToken', { tokenId: token.tokenId, overlapMinutes: Number(overlap) }),
    onSuccess: refresh,
  });
  const active = token.state === 'active';
  return (
    <li className="token">
      <div className="card-header">
        <strong>{token.name}</strong> <StatusBadge status={token.state} />
      </div>
      <p className="small muted">
        {token.scopes.join(' ')} · made <When at={token.createdAt} /> · expires{' '}
        {exactTime(token.expiresAt)} · last used{' '}
        {token.lastUsedAt ? <When at={token.lastUsedAt} /> : 'never'}
        {token.refuseAfter && <> · refused after {exactTime(token.refuseAfter)}</>}
      </p>
      {rotate.data && (
        <SecretOnce label={`New value of ${token.name}.`} value={rotate.data.token} />
      )}
      <FormError error={revoke.error ?? rotate.error} fields={['overlapMinutes']} />
      {active && can('rotateToken') && !rotate.data && (
        <div className="inline-form">
          <Field
            name="overlapMinutes"
            label="Overlap (minutes the old value still works)"
            inputMode="numeric"
            value={overlap}
            onChange={(e) => setOverlap(e.target.value)}
            error={rotate.error}
          />
          <button
            type="button"
            className="button"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
          >
            Rotate {token.name}
          </button>
        </div>
      )}
      {active && can('revokeToken') && (
        <div className="button-row">
          {confirmRevoke ? (
            <>
              <span>Refused everywhere once revoked.</span>
              <button
                type="button"
                className="button danger"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate()}
              >
                Yes, revoke {token.name}
              </button>
              <button type="button" className="button" onClick={() => setConfirmRevoke(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="button danger" onClick={() => setConfirmRevoke(true)}>
              Revoke {token.name}…
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** An agent's tokens: mint one (its value shown once), rotate with an overlap, revoke. */
export function AgentTokens({
  principalId,
  agentName,
}: {
  principalId: string;
  agentName: string;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const tokens = useQuery({
    queryKey: ['tokens', principalId],
    queryFn: () => query('tokens', { principalId, limit: 100 }),
  });
  const mint = useMutation({
    mutationFn: () =>
      mutate('generateAgentToken', { principalId, tokenName: name, expiresInDays: Number(days) }),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mint.mutate();
  };
  return (
    <div className="tokens">
      <h3>Tokens</h3>
      {mint.data && <SecretOnce label={`Token ${mint.data.name}.`} value={mint.data.token} />}
      {tokens.isPending ? null : tokens.isError ? (
        <FormError error={tokens.error} />
      ) : tokens.data.items.length === 0 ? (
        <p className="muted small">No token yet: mint one for the agent to call Slipway with.</p>
      ) : (
        <ul className="cards">
          {tokens.data.items.map((t) => (
            <TokenRow key={t.tokenId} token={t} />
          ))}
        </ul>
      )}
      {can('generateAgentToken') && (
        <form
          className="inline-form"
          onSubmit={submit}
          aria-label={`Mint a token for ${agentName}`}
          noValidate
        >
          <FormError error={mint.error} fields={['tokenName', 'expiresInDays']} />
          <Field
            name="tokenName"
            label="Token name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={mint.error}
          />
          <Field
            name="expiresInDays"
            label="Expires in (days)"
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={mint.error}
          />
          <SubmitButton pending={mint.isPending}>Mint a token</SubmitButton>
        </form>
      )}
    </div>
  );
}
