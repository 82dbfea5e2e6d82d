import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./fixtures/trpc-client-calls.mjs', import.meta.url));

describe('a stock tRPC client (httpLink + superjson) in its own Node process', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await signUp(t.url, 'owner@example.com');
    token = (await createToken(t.url, owner.cookie, ['deploy:read', 'deploy:start'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('calls a query and a mutation, with Dates both ways, reads errors from their meta, refuses batches', async () => {
    const { stdout } = await run(process.execPath, [script, t.url, token]);
    const result = JSON.parse(stdout);
    expect(result).toEqual({
      healthStatus: 'ok',
      added: { noteId: 'trpc-1', position: expect.any(String) },
      note: expect.objectContaining({ text: 'via tRPC', remindAt: '2031-01-02T03:04:05.000Z' }),
      readAtIsDate: true,
      readAt: '2026-01-02T03:04:05.000Z',
      // What the stock client makes of an error: its own message, no data; Slipway's error
      // (string code, message, issues) and the status are on the error's meta, as sent.
      error: {
        isClientError: true,
        message: expect.any(String),
        data: null,
        responseError: {
          code: 'BAD_REQUEST',
          message: 'Input is invalid',
          data: expect.objectContaining({
            issues: [expect.objectContaining({ path: 'noteId' })],
          }),
        },
        status: 400,
      },
      batch: { status: 400, message: expect.stringContaining('httpLink, not httpBatchLink') },
    });
  });
});
