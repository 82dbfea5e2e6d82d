import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { ApiError, describeError, type FieldIssue } from '../api/errors';

/** The issues of a failed call that belong to `field` (its path, or a path under it). */
export function issuesFor(error: unknown, field: string): FieldIssue[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues.filter((i) => i.path === field || i.path.startsWith(`${field}.`));
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  /** What the field takes, shown under it (the server's rule). */
  hint?: ReactNode;
  /** The failed call whose issues may name this field, or a message of the page's own. */
  error?: unknown;
  problem?: string | null;
}

/** A labelled input whose problems are read out with it (aria-describedby, aria-invalid). */
export function Field({ name, label, hint, error, problem, ...input }: FieldProps) {
  const id = useId();
  const messages = [...issuesFor(error, name).map((i) => i.message), ...(problem ? [problem] : [])];
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = messages.length ? `${id}-problem` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={messages.length > 0 || undefined}
        aria-describedby={[problemId, hintId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {problemId && (
        <p className="field-problem" id={problemId}>
          {messages.join('. ')}
        </p>
      )}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * What went wrong with the form as a whole, in words; field issues not shown beside a field of
 * this form (`fields`) are listed with the field's name.
 */
export function FormError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  const unplaced =
    error instanceof ApiError
      ? error.issues.filter((i) => !fields.some((f) => i.path === f || i.path.startsWith(`${f}.`)))
      : [];
  const placed = error instanceof ApiError && error.issues.length > unplaced.length;
  return (
    <div className="alert alert-error" role="alert">
      <p>{placed ? 'Please correct the fields marked below.' : describeError(error)}</p>
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="button primary" disabled={pending} aria-busy={pending}>
      {pending ? 'Working…' : children}
    </button>
  );
}
