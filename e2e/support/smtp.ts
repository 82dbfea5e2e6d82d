import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  subject: string;
  text: string;
}

export interface TestSmtp {
  port: number;
  inbox: Received[];
  /** The first mail to `to` matching `subject`, once it arrives (bounded wait). */
  mailTo(to: string, subject: RegExp): Promise<Received>;
  stop(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtp(): Promise<TestSmtp> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    inbox,
    async mailTo(to, subject) {
      for (let i = 0; i < 400; i++) {
        const found = inbox.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no mail to ${to} matching ${subject}`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
