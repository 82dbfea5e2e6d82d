import type { EnvVarInput } from '../api/contract';
import { issuesFor } from './form';

export interface EnvRow extends EnvVarInput {
  secret: boolean;
}

/**
 * Environment variables as rows: name, value, secret. Secret values are typed into password
 * inputs; the server seals them and answers only a mask afterwards, so an edit re-enters them.
 */
export function EnvEditor({
  rows,
  onChange,
  error,
}: {
  rows: EnvRow[];
  onChange: (rows: EnvRow[]) => void;
  error?: unknown;
}) {
  const update = (i: number, patch: Partial<EnvRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="env-editor">
      <legend>Environment variables</legend>
      {rows.length === 0 && <p className="muted small">None. Add one if the service needs it.</p>}
      {rows.map((row, i) => {
        const problems = issuesFor(error, `env.${i}`).map((p) => p.message);
        return (
          <div className="env-row" key={i}>
            <input
              aria-label={`Name of variable ${i + 1}`}
              placeholder="NAME"
              value={row.name}
              onChange={(e) => update(i, { name: e.target.value })}
              aria-invalid={problems.length > 0 || undefined}
            />
            <input
              aria-label={`Value of variable ${i + 1}`}
              type={row.secret ? 'password' : 'text'}
              autoComplete="off"
              placeholder={row.secret ? 'secret value' : 'value'}
              value={row.value}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <label className="check">
              <input
                type="checkbox"
                checked={row.secret}
                onChange={(e) => update(i, { secret: e.target.checked })}
              />
              Secret
            </label>
            <button
              type="button"
              className="link-button"
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              Remove<span className="visually-hidden"> variable {i + 1}</span>
            </button>
            {problems.length > 0 && (
              <p className="field-problem">
                Variable {i + 1}: {problems.join('. ')}
              </p>
            )}
          </div>
        );
      })}
      <button
        type="button"
        className="button"
        onClick={() => onChange([...rows, { name: '', value: '', secret: false }])}
      >
        Add a variable
      </button>
    </fieldset>
  );
}
