import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FileMailSender, recipientsOf } from './file-mail-sender.js';

describe('FileMailSender.forget', () => {
  let dir: string;
  let sender: FileMailSender;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-mail-'));
    sender = new FileMailSender(join(dir, 'mail'), 'Slipway <slipway@example.com>');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const texts = () =>
    readdirSync(join(dir, 'mail')).map((f) => readFileSync(join(dir, 'mail', f), 'utf8'));

  it('removes the files addressed to the address it is given, and only those', async () => {
    await sender.send({
      to: 'leaver@example.com',
      subject: 'Invite',
      text: 'for leaver@example.com',
    });
    await sender.send({ to: 'stayer@example.com', subject: 'Invite', text: 'for stayer' });
    await sender.send({ to: 'Leaver@Example.com', subject: 'Reset', text: 'a reset link' });
    expect(await sender.forget((a) => a === 'leaver@example.com')).toBe(2);
    expect(texts()).toHaveLength(1);
    expect(texts().join('')).not.toMatch(/leaver/i);
    expect(await sender.forget((a) => a === 'leaver@example.com')).toBe(0);
  });

  it('has nothing to remove before any mail was written', async () => {
    expect(await sender.forget(() => true)).toBe(0);
  });

  it('reads recipients from folded To, Cc and Bcc headers, not from the body', () => {
    const message =
      'From: s@example.com\nTo: "A, B" <a@example.com>,\n b@example.com\nCc: C@example.com\n' +
      'Subject: x\n\nTo: d@example.com\n';
    expect(recipientsOf(message)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });
});
