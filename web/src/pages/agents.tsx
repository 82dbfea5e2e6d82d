import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Done, SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { When } from '../components/time';
import { AgentTokens } from './agent-tokens';

type Preset = NonNullable<ProcedureInputs['createAgent']['preset']>;
const PRESETS: { value: Preset; label: string }[] = [
  { value: 'agent:read-only', label: 'Read only (default)' },
  { value: 'agent:minimal-write', label: 'Minimal write: plan and deploy' },
  { value: 'agent:full', label: 'Full: everything an operator may do' },
];

function CreateAgent() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<Preset>('agent:read-only');
  const create = useMutation({
    mutationFn: () => mutate('createAgent', { name, preset }),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-labelledby="create-agent-title" noValidate>
      <h2 id="create-agent-title">Create an agent</h2>
      {create.data && <Done>Agent {create.data.name} created: mint it a token below.</Done>}
      <FormError error={create.error} fields={['name', 'preset']} />
      <Field
        name="name"
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={create.error}
      />
      <SelectField
        name="preset"
        label="Preset"
        value={preset}
        onChange={(e) => setPreset(e.target.value as Preset)}
        options={PRESETS}
        hint="The most the agent may ever do; its tokens narrow it further."
        error={create.error}
      />
      <SubmitButton pending={create.isPending}>Create the agent</SubmitButton>
    </form>
  );
}

/** Agents (machine principals) and their tokens. */
export function AgentsPage() {
  const can = useCan();
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () => query('agents', { limit: 100 }),
  });
  return (
    <Page title="Agents and tokens">
      {can('createAgent') && <CreateAgent />}
      {agents.isPending ? (
        <Loading what="agents" />
      ) : agents.isError ? (
        <FormError error={agents.error} />
      ) : agents.data.items.length === 0 ? (
        <EmptyState title="No agent yet.">
          <p>
            Create one above for each program that calls Slipway (a CI job, an assistant), with the
            narrowest preset that does its work; then mint it a token.
          </p>
        </EmptyState>
      ) : (
        agents.data.items.map((a) => (
          <section className="card" key={a.id} aria-labelledby={`agent-${a.id}`}>
            <div className="card-header">
              <h2 id={`agent-${a.id}`}>{a.name}</h2>
              <span className="tag">{a.preset}</span>
            </div>
            <p className="small muted">
              Created <When at={a.createdAt} />
              {a.invalidated && ' · every token invalidated'}
            </p>
            <AgentTokens principalId={a.id} agentName={a.name} />
          </section>
        ))
      )}
    </Page>
  );
}
