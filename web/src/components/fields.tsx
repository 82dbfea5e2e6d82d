import {
  useId,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { issuesFor } from './form';

interface Described {
  name: string;
  label: string;
  hint?: ReactNode;
  /** The failed call whose issues may name this field. */
  error?: unknown;
}

function useDescribed(name: string, hint: ReactNode, error: unknown) {
  const id = useId();
  const messages = issuesFor(error, name).map((i) => i.message);
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = messages.length ? `${id}-problem` : undefined;
  const problem = problemId && (
    <p className="field-problem" id={problemId}>
      {messages.join('. ')}
    </p>
  );
  const hintText = hint && (
    <p className="field-hint" id={hintId}>
      {hint}
    </p>
  );
  const aria = {
    'aria-invalid': messages.length > 0 || undefined,
    'aria-describedby': [problemId, hintId].filter(Boolean).join(' ') || undefined,
  };
  return { id, problem, hintText, aria };
}

/** A labelled text area whose problems are read out with it, like `Field`. */
export function TextAreaField({
  name,
  label,
  hint,
  error,
  ...rest
}: Described & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, problem, hintText, aria } = useDescribed(name, hint, error);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} spellCheck={false} {...aria} {...rest} />
      {problem}
      {hintText}
    </div>
  );
}

/** A labelled select whose problems are read out with it, like `Field`. */
export function SelectField({
  name,
  label,
  hint,
  error,
  options,
  ...rest
}: Described &
  SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  const { id, problem, hintText, aria } = useDescribed(name, hint, error);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} {...aria} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {problem}
      {hintText}
    </div>
  );
}

/** A success note, read out when it appears. */
export function Done({ children }: { children: ReactNode }) {
  return (
    <div className="alert alert-info" role="status">
      {children}
    </div>
  );
}
