import type { AnswerOf } from '../api/answers';

type Check = AnswerOf<'checkServer'>;

/** What a connection check found: connected or not, and which of its steps passed. */
export function CheckReport({ check }: { check: Check }) {
  const facts = [
    ['reachable', check.reachable],
    ['host key matches', check.hostKeyMatches],
    ['key accepted', check.authenticated],
  ] as const;
  return (
    <div className={check.ok ? 'alert alert-info' : 'alert alert-error'} role="status">
      <p>
        {check.ok ? 'Connected' : 'Not connected'} to {check.target}
        {check.latencyMs !== null && ` in ${check.latencyMs} ms`}
        {check.error && `: ${check.error.message}`}.
      </p>
      <p className="small">
        {facts
          .filter(([, v]) => v !== null)
          .map(([label, v]) => `${label}: ${v ? 'yes' : 'no'}`)
          .join(' · ')}
      </p>
    </div>
  );
}
