export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** How Slipway sends mail: SMTP in production, .eml files when no SMTP server is configured. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Removes the copies of sent mail this sender keeps (the `.eml` files, without SMTP) that are
   * addressed to anyone `addressedTo` accepts (given lower-cased); returns how many. Mail handed
   * to an SMTP server has left Slipway: that sender keeps nothing and has no `forget`.
   */
  forget?(addressedTo: (address: string) => boolean): Promise<number>;
}

export const MAIL_SENDER = Symbol('MAIL_SENDER');
