import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where the typed map of procedure name → message (input and answer) is generated. */
export const PROCEDURE_MESSAGES_PATH = 'contract/procedure-messages.generated.ts';

// `@Procedure.command(TriggerDeploy, {` then, before the next `})`, `name: 'triggerDeploy'`.
const DECLARATION =
  /@Procedure\.(?:command|read|planning|public)\(\s*([A-Z][A-Za-z0-9]*),\s*\{[^]*?\bname:\s*'([a-zA-Z0-9]+)'/g;

export interface DeclaredMessage {
  name: string;
  message: string;
  /** The declaring file, relative to the root, `.ts`. */
  file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Each `@Procedure` declaration under `src/`: its name, its message class and its file. */
export function findDeclaredMessages(root: string): DeclaredMessage[] {
  const found: DeclaredMessage[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(DECLARATION)) {
      found.push({ name: match[2], message: match[1], file: relative(root, path) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A type map from each procedure's name to its message class, so that the dashboard and the
 * tests type a call's input and answer from the declaration itself. `names` are the registry's:
 * a procedure the source scan misses (or finds twice) stops the generation.
 */
export function renderProcedureMessages(root: string, names: readonly string[]): string {
  const declared = findDeclaredMessages(root).filter((d) => names.includes(d.name));
  const missing = names.filter((n) => !declared.some((d) => d.name === n));
  const twice = declared.filter((d, i) => declared.findIndex((x) => x.name === d.name) !== i);
  if (twice.length) throw new Error(`declared twice: ${twice.map((d) => d.name).join(', ')}`);
  if (missing.length) throw new Error(`no @Procedure declaration found for ${missing.join(', ')}`);
  const out = [
    '// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.',
    '// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.',
  ];
  const byFile = new Map<string, string[]>();
  for (const d of declared) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d.message]);
  for (const [file, messages] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    const from = `../${file.replace(/\.ts$/, '.js')}`;
    out.push(`import type { ${[...new Set(messages)].sort().join(', ')} } from '${from}';`);
  }
  out.push('', '/** Each procedure’s message: its input and its answer, as declared. */');
  out.push('export interface ProcedureMessages {');
  for (const d of declared) out.push(`  ${d.name}: ${d.message};`);
  out.push('}', '');
  return out.join('\n');
}
