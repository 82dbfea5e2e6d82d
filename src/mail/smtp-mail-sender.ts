import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from './mail-sender.port.js';

/** A real SMTP conversation with the server of `SLIPWAY_SMTP_URL`. */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}
