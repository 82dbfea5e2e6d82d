import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate, query } from '../api/client';
import type { AnswerOf } from '../api/answers';
import type { ProcedureInputs } from '../api/contract';
import { Done, TextAreaField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading } from '../components/page';

type Provider = AnswerOf<'identityProviders'>['providers'][number];
type ProviderInput = ProcedureInputs['configureIdentityProvider'];
type MappedRole = NonNullable<ProviderInput['defaultRole']>;
const ROLES: MappedRole[] = ['admin', 'operator', 'viewer'];

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
const words = (value: string) => value.split(/[\s,]+/).filter(Boolean);

/** `group = role` per line; lines that are not are kept out and reported by the server. */
function rulesOf(value: string): { value: string; role: MappedRole }[] {
  return value
    .split('\n')
    .map((line) => line.split('='))
    .filter((parts) => parts.length === 2 && parts[0]!.trim() !== '')
    .map(([claim, role]) => ({ value: claim!.trim(), role: role!.trim() as MappedRole }));
}

function inputOf(form: FormData): ProviderInput {
  const secret = text(form, 'clientSecret');
  const claim = text(form, 'roleClaim');
  const rules = rulesOf(String(form.get('roleRules') ?? ''));
  const defaultRole = text(form, 'defaultRole');
  return {
    providerId: text(form, 'providerId'),
    displayName: text(form, 'displayName'),
    issuer: text(form, 'issuer'),
    clientId: text(form, 'clientId'),
    ...(secret ? { clientSecret: secret } : {}),
    allowedDomains: words(text(form, 'allowedDomains')),
    ...(claim ? { roleClaim: claim } : {}),
    ...(rules.length > 0 ? { roleRules: rules } : {}),
    ...(defaultRole ? { defaultRole: defaultRole as MappedRole } : {}),
    trustProviderMfa: form.get('trustProviderMfa') === 'on',
    enabled: form.get('enabled') === 'on',
  };
}

function ProviderForm({ editing, onDone }: { editing: Provider | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: ProviderInput) => mutate('configureIdentityProvider', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['identityProviders'] });
      onDone();
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(inputOf(new FormData(e.currentTarget)));
  };
  const mapping = editing?.roleMapping;
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Change provider' : 'Add a provider'}>
      <FormError
        error={save.error}
        fields={['providerId', 'displayName', 'issuer', 'clientId', 'clientSecret']}
      />
      <Field
        name="providerId"
        label="Provider id"
        hint="Lower-case letters, digits and -; it appears in the sign-in address."
        defaultValue={editing?.providerId}
        readOnly={editing !== null}
        error={save.error}
      />
      <Field
        name="displayName"
        label="Name on the sign-in page"
        defaultValue={editing?.displayName}
        error={save.error}
      />
      <Field
        name="issuer"
        label="Issuer"
        hint="The provider's issuer URL, e.g. https://login.example.com/realms/acme."
        defaultValue={editing?.issuer}
        error={save.error}
      />
      <Field
        name="clientId"
        label="Client id"
        defaultValue={editing?.clientId}
        error={save.error}
      />
      <Field
        name="clientSecret"
        label="Client secret"
        type="password"
        autoComplete="off"
        hint={
          editing ? 'Leave empty to keep the one stored (it is never shown).' : 'Stored sealed.'
        }
        error={save.error}
      />
      <Field
        name="allowedDomains"
        label="Email domains that may join without an invite"
        hint="Separated by spaces or commas; empty: invites only."
        defaultValue={editing?.allowedDomains.join(' ')}
        error={save.error}
      />
      <Field
        name="roleClaim"
        label="Claim that decides roles"
        hint="e.g. groups; empty: roles are set here, by people."
        defaultValue={mapping?.claim ?? ''}
        error={save.error}
      />
      <TextAreaField
        name="roleRules"
        label="Claim value = role, one per line"
        hint="e.g. platform-admins = admin. The highest role that matches wins; owners are never changed."
        rows={3}
        defaultValue={mapping?.rules.map((r) => `${r.value} = ${r.role}`).join('\n')}
        error={save.error}
      />
      <div className="field">
        <label htmlFor="sso-default-role">Role when no rule matches</label>
        <select id="sso-default-role" name="defaultRole" defaultValue={mapping?.defaultRole ?? ''}>
          <option value="">None: refuse the sign-in</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="trustProviderMfa"
          defaultChecked={editing?.trustProviderMfa ?? false}
        />
        <span>
          Count the provider&rsquo;s two-factor sign-in toward the team MFA policy{' '}
          <span className="muted small">(when its ID token&rsquo;s amr names two factors)</span>
        </span>
      </label>
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked={editing?.enabled ?? true} />
        <span>Offer it on the sign-in page</span>
      </label>
      <div className="button-row">
        <SubmitButton pending={save.isPending}>
          {editing ? 'Save the provider' : 'Add the provider'}
        </SubmitButton>
        {editing && (
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function ProviderRow({ provider, onEdit }: { provider: Provider; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => mutate('removeIdentityProvider', { providerId: provider.providerId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['identityProviders'] }),
  });
  const { roleMapping: m } = provider;
  return (
    <tr>
      <td>
        {provider.displayName} <span className="muted small">{provider.providerId}</span>
      </td>
      <td className="small">{provider.issuer}</td>
      <td className="small">{provider.allowedDomains.join(', ') || 'invites only'}</td>
      <td className="small">
        {m.claim
          ? `${m.claim}: ${m.rules.map((r) => `${r.value}→${r.role}`).join(', ') || 'no rules'}; else ${m.defaultRole ?? 'refused'}`
          : 'set by people'}
      </td>
      <td>{provider.enabled ? 'on' : 'off'}</td>
      <td className="button-row">
        <button type="button" className="button" onClick={onEdit}>
          Change
        </button>
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          Remove
        </button>
        {remove.error ? <FormError error={remove.error} /> : null}
      </td>
    </tr>
  );
}

function SsoRequired({ required, providers }: { required: boolean; providers: number }) {
  const queryClient = useQueryClient();
  const [want, setWant] = useState(required);
  const save = useMutation({
    mutationFn: () => mutate('updateSsoPolicy', { required: want }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['accountSecurityStatus'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Single sign-on required">
      <FormError error={save.error} />
      {save.isSuccess && (
        <Done>{want ? 'Humans now sign in through a provider.' : 'Passwords work again.'}</Done>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={want}
          disabled={!required && providers === 0}
          onChange={(e) => setWant(e.target.checked)}
        />
        <span>
          Require single sign-on for everyone{' '}
          <span className="muted small">
            Owners keep their password with two-factor authentication as break-glass; each such
            sign-in is recorded and notified.
          </span>
        </span>
      </label>
      <SubmitButton pending={save.isPending}>Save</SubmitButton>
    </form>
  );
}

/** Owners: the identity providers people sign in through, and whether they must. */
export function SingleSignOn({ ssoRequired }: { ssoRequired: boolean }) {
  const providers = useQuery({
    queryKey: ['identityProviders'],
    queryFn: () => query('identityProviders'),
  });
  const [editing, setEditing] = useState<Provider | null>(null);
  // A new form after each save, so the next provider starts from empty fields.
  const [saved, setSaved] = useState(0);
  return (
    <section className="card" aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      {providers.isPending ? (
        <Loading what="the identity providers" />
      ) : providers.isError ? (
        <FormError error={providers.error} />
      ) : (
        <>
          <p className="small">
            Register <code>{providers.data.redirectUri}</code> as the redirect URI of an OpenID
            Connect client at your provider (authorization code flow, scopes openid email profile),
            then add it here.
          </p>
          {providers.data.providers.length > 0 && (
            <div className="table-scroll">
              <table className="table stack" aria-label="Identity providers">
                <thead>
                  <tr>
                    <th scope="col">Provider</th>
                    <th scope="col">Issuer</th>
                    <th scope="col">Joins</th>
                    <th scope="col">Roles</th>
                    <th scope="col">On</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {providers.data.providers.map((p) => (
                    <ProviderRow key={p.providerId} provider={p} onEdit={() => setEditing(p)} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>{editing ? `Change ${editing.displayName}` : 'Add a provider'}</h3>
          <ProviderForm
            key={editing ? `edit-${editing.providerId}` : `new-${saved}`}
            editing={editing}
            onDone={() => {
              setEditing(null);
              setSaved((n) => n + 1);
            }}
          />
          <h3>Policy</h3>
          <SsoRequired
            required={ssoRequired}
            providers={providers.data.providers.filter((p) => p.enabled).length}
          />
        </>
      )}
    </section>
  );
}
