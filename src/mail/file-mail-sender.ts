import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from './mail-sender.port.js';

/**
 * Without SMTP, each message is written as a complete RFC 5322 `.eml` file under
 * `<data dir>/mail/`, mode 0600 (it may hold a reset link), readable by any mail client.
 */
export class FileMailSender implements MailSender {
  private transport: Transporter | null = null;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const nodemailer = (await import('nodemailer')).default;
    this.transport ??= nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'unix',
    });
    const info = (await this.transport.sendMail({ from: this.from, ...mail })) as {
      message: Buffer;
    };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    writeFileSync(join(this.dir, name), info.message, { mode: 0o600 });
  }

  async forget(addressedTo: (address: string) => boolean): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith('.eml'))) {
      const file = join(this.dir, name);
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null || !recipientsOf(text).some(addressedTo)) continue;
      await shred(file);
      removed += 1;
    }
    return removed;
  }
}

/** The addresses in a message's To, Cc and Bcc headers, lower-cased. */
export function recipientsOf(message: string): string[] {
  const end = message.search(/\r?\n\r?\n/);
  const header = (end < 0 ? message : message.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  return header
    .split(/\r?\n/)
    .filter((line) => /^(to|cc|bcc):/i.test(line))
    .flatMap(
      (line) => line.slice(line.indexOf(':') + 1).match(/[^\s<>,;:"()]+@[^\s<>,;:"()]+/g) ?? [],
    )
    .map((address) => address.toLowerCase());
}

/**
 * Overwritten, then unlinked: where the file system writes in place, its blocks no longer hold
 * the text (a copy-on-write file system or a backup may still).
 */
async function shred(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    await handle.write(Buffer.alloc(size), 0, size, 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await unlink(file);
}
