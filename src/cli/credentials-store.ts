import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface StoredContext {
  url: string;
  /** An API token (`slw_...`) or a session cookie value; the prefix tells which. */
  credential: string;
  savedAt: string;
}

interface CredentialsFile {
  current: string | null;
  contexts: Record<string, StoredContext>;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'slipway', 'credentials.json');
}

/** `$XDG_CONFIG_HOME/slipway/credentials.json`: directory 0700, file 0600, named contexts. */
export class CredentialsStore {
  constructor(private readonly file = credentialsPath()) {}

  private read(): CredentialsFile {
    if (!existsSync(this.file)) return { current: null, contexts: {} };
    return JSON.parse(readFileSync(this.file, 'utf8')) as CredentialsFile;
  }

  private write(data: CredentialsFile): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    chmodSync(dirname(this.file), 0o700);
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
    chmodSync(this.file, 0o600);
  }

  get(name?: string): { name: string; context: StoredContext } | null {
    const data = this.read();
    const key = name ?? data.current;
    if (!key || !data.contexts[key]) return null;
    return { name: key, context: data.contexts[key] };
  }

  /** Stores a credential for `url` under `name`, which becomes the current context. */
  save(name: string, url: string, credential: string): void {
    const data = this.read();
    data.contexts[name] = { url, credential, savedAt: new Date().toISOString() };
    data.current = name;
    this.write(data);
  }

  /** The context removed (null when there was none) and the one now current, if any. */
  remove(name?: string): { removed: string | null; current: string | null } {
    const data = this.read();
    const key = name ?? data.current;
    if (!key || !data.contexts[key]) return { removed: null, current: data.current };
    delete data.contexts[key];
    if (data.current === key) data.current = Object.keys(data.contexts)[0] ?? null;
    this.write(data);
    return { removed: key, current: data.current };
  }
}
