import type { ApiContract, ContractProcedure } from './build-contract.js';

/** Where the generated list of procedures is written (committed, checked like the contract). */
export const PROCEDURE_TABLE_PATH = 'docs/procedures.md';

const LANES = ['command', 'planning', 'read'] as const;

/** Markdown table cells: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function inputOf(p: ContractProcedure): string {
  const properties = (p.input?.properties ?? {}) as Record<string, unknown>;
  const required = new Set((p.input?.required ?? []) as string[]);
  const names = Object.keys(properties).map((n) => (required.has(n) ? `\`${n}\`` : `\`${n}?\``));
  return names.length ? names.join(', ') : '—';
}

/** `in the project of the service serviceId`: where the roles are held, for access per project. */
function projectOf(p: ContractProcedure): string {
  const [[kind, field]] = Object.entries(p.project ?? { '': '' });
  if (!kind) return p.projectList || p.ownOnly ? '' : 'team-wide';
  if (kind === 'project') return `in project \`${field}\``;
  if (kind === 'alert') {
    return `in the project of the server \`serverId\` or service \`serviceId\` watched (or of the rule \`${field}\`)`;
  }
  const what = kind === 'hook' ? 'deploy hook' : kind === 'job' ? 'scheduled job' : kind;
  return `in the project of the ${what} \`${field}\``;
}

function whoOf(p: ContractProcedure): string {
  if (p.auth === 'public') return 'anyone';
  const roles = p.roles.join(', ');
  return [roles, projectOf(p), p.sessionOnly ? 'session only' : '', p.mfaExempt ? 'MFA-exempt' : '']
    .filter(Boolean)
    .join('; ');
}

/**
 * Every procedure of the contract as a Markdown page, one table per lane: how it is called,
 * who may call it, the scopes a token needs, its input fields and what it does. Generated from
 * the contract, so the published list cannot drift from what is enforced.
 */
export function renderProcedureTable(contract: ApiContract): string {
  const out: string[] = [
    '<!-- Generated from contract/api-contract.json by `npm run contract:generate`: do not edit. -->',
    '<!-- `npm run contract:check` (part of `npm test`) fails when this file and the contract differ. -->',
    '',
    '# Procedures',
    '',
    `Every procedure under \`${contract.procedureRoot}/<name>\`, from the live declarations that also drive`,
    'routing, the guard and input validation. Queries (read and planning lanes) are `GET` with',
    '`?input=<url-encoded {"json": <input>}>`; commands are `POST` with `{"json": <input>}`. A token',
    'needs every scope listed, and its principal one of the roles; an input field marked `?` may be',
    'left out. Where a procedure acts "in the project of" something, the role is the one held in',
    'that project ([security.md](security.md#projects)); a "team-wide" procedure acts on the whole',
    'team, and a token limited to projects is refused it. How to call them, the answers and the errors:',
    '[api.md](api.md).',
  ];
  for (const lane of LANES) {
    const procedures = contract.procedures.filter((p) => p.lane === lane);
    if (procedures.length === 0) continue;
    out.push('', `## ${lane[0].toUpperCase()}${lane.slice(1)} lane (${procedures.length})`, '');
    out.push(
      '| procedure | call | who | scopes | input | what |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const p of procedures) {
      const scopes = p.scopes.length ? p.scopes.map((s) => `\`${s}\``).join(', ') : '—';
      out.push(
        `| \`${p.name}\` | ${p.method} | ${cell(whoOf(p))} | ${scopes} | ${inputOf(p)} | ${cell(p.description)} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
