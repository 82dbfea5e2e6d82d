export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** How Slipway sends mail: SMTP in production, .eml files when no SMTP server is configured. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

export const MAIL_SENDER = Symbol('MAIL_SENDER');
