import type { Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from './mail-sender.port.js';

/** A real SMTP conversation with the server of `SLIPWAY_SMTP_URL`. */
export class SmtpMailSender implements MailSender {
  private transport: Transporter | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    // nodemailer is loaded on the first message, not at start-up.
    const nodemailer = (await import('nodemailer')).default;
    this.transport ??= nodemailer.createTransport(this.url);
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}
