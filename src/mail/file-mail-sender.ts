import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
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
}
