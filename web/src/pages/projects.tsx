import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading, Page } from '../components/page';

type Project = AnswerOf<'projects'>['items'][number];
type GrantRole = ProcedureInputs['grantProjectRole']['role'];

function CreateProject() {
  const queryClient = useQueryClient();
  const [projectId, setProjectId] = useState('');
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => mutate('createProject', { projectId, name }),
    onSuccess: () => {
      setProjectId('');
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Create a project" noValidate>
      <FormError error={create.error} fields={['projectId', 'name']} />
      <Field
        name="projectId"
        label="Project id"
        hint="Lower-case letters, digits and -; it does not change."
        value={projectId}
        onChange={(e) => setProjectId(e.target.value)}
        error={create.error}
      />
      <Field
        name="name"
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={create.error}
      />
      <SubmitButton pending={create.isPending}>Create the project</SubmitButton>
    </form>
  );
}

/** Who holds a role in one project, and giving or taking one (owners and admins). */
function Grants({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const key = ['projectGrants', project.projectId];
  const grants = useQuery({
    queryKey: key,
    queryFn: () => query('projectGrants', { projectId: project.projectId }),
  });
  const members = useQuery({
    queryKey: ['members'],
    queryFn: () => query('members', { limit: 100 }),
  });
  const agents = useQuery({ queryKey: ['agents'], queryFn: () => query('agents', { limit: 100 }) });
  const people = [
    ...(members.data?.items ?? [])
      .filter((m) => m.role !== 'owner' && m.role !== 'admin')
      .map((m) => ({ id: m.id, label: `${m.name} <${m.email ?? ''}> (${m.role})`, agent: false })),
    ...(agents.data?.items ?? []).map((a) => ({
      id: a.id,
      label: `${a.name} (agent)`,
      agent: true,
    })),
  ];
  const nameOf = (id: string) => people.find((p) => p.id === id)?.label ?? id;
  const [principalId, setPrincipalId] = useState('');
  const [role, setRole] = useState<GrantRole>('operator');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const grant = useMutation({
    mutationFn: () => {
      const agent = people.find((p) => p.id === principalId)?.agent ?? false;
      return mutate('grantProjectRole', {
        projectId: project.projectId,
        principalId,
        role: agent ? 'agent' : role,
      });
    },
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      mutate('revokeProjectRole', { projectId: project.projectId, principalId: id }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate();
  };
  return (
    <section className="card" aria-labelledby={`grants-${project.projectId}`}>
      <h2 id={`grants-${project.projectId}`}>
        {project.name} <span className="muted small">{project.projectId}</span>
      </h2>
      <p className="small muted">
        Owners and admins reach every project.
        {project.projectId === 'default' &&
          ' Here, everyone else holds their team role unless granted another.'}
      </p>
      {grants.isPending ? (
        <Loading what="the roles" />
      ) : grants.isError ? (
        <FormError error={grants.error} />
      ) : grants.data.items.length === 0 ? (
        <p className="muted">Nobody is granted a role here yet.</p>
      ) : (
        <table className="table stack" aria-label={`Roles in ${project.name}`}>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.data.items.map((g) => (
              <tr key={g.principalId}>
                <td>{nameOf(g.principalId)}</td>
                <td>{g.role}</td>
                <td>
                  <button
                    type="button"
                    className="button danger"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(g.principalId)}
                  >
                    Take away
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormError error={revoke.error} />
      <form onSubmit={submit} aria-label={`Give a role in ${project.name}`} noValidate>
        <FormError error={grant.error} fields={['principalId', 'role']} />
        <SelectField
          name="principalId"
          label="Member or agent"
          value={principalId}
          onChange={(e) => setPrincipalId(e.target.value)}
          options={[
            { value: '', label: 'Choose…' },
            ...people.map((p) => ({ value: p.id, label: p.label })),
          ]}
          error={grant.error}
        />
        <SelectField
          name="role"
          label="Role in this project"
          value={role}
          onChange={(e) => setRole(e.target.value as GrantRole)}
          options={(['admin', 'operator', 'viewer'] as const).map((r) => ({ value: r, label: r }))}
          hint="An agent is given the role agent: its preset stays its ceiling."
          error={grant.error}
        />
        <SubmitButton pending={grant.isPending}>Give the role</SubmitButton>
      </form>
    </section>
  );
}

/** The projects you reach with your role in each; owners and admins manage them here. */
export function ProjectsPage() {
  const can = useCan();
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => query('projects') });
  return (
    <Page title="Projects">
      <section className="card" aria-labelledby="projects-title">
        <h2 id="projects-title">Your projects</h2>
        {projects.isPending ? (
          <Loading what="the projects" />
        ) : projects.isError ? (
          <FormError error={projects.error} />
        ) : (
          <table className="table stack" aria-label="Projects">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Id</th>
                <th scope="col">Your role</th>
              </tr>
            </thead>
            <tbody>
              {projects.data.items.map((p) => (
                <tr key={p.projectId}>
                  <td>{p.name}</td>
                  <td>
                    <code>{p.projectId}</code>
                  </td>
                  <td>{p.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {can('createProject') && (
          <>
            <h3>Create a project</h3>
            <CreateProject />
          </>
        )}
      </section>
      {can('grantProjectRole') &&
        projects.data?.items.map((p) => <Grants key={p.projectId} project={p} />)}
    </Page>
  );
}
