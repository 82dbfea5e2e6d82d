import { describe, it } from '@jest/globals';
import { UploadOpened, UploadReceived } from '../../events/uploads.events.js';
import { given } from '../../storage/testing/given.js';
import { uploadDecider as uploads, type UploadCommand } from './upload.decider.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const opened = UploadOpened({
  uploadId: 'upl_1',
  principalId: 'u1',
  maxBytes: 1000,
  expiresAt: new Date(NOW + 60_000).toISOString(),
});
const received = UploadReceived({ uploadId: 'upl_1', sha256: 'ab', bytes: 10, entries: 2 });
const receive = (over: Partial<UploadCommand> = {}): UploadCommand =>
  ({
    kind: 'receive',
    uploadId: 'upl_1',
    principalId: 'u1',
    now: NOW,
    sha256: 'ab',
    bytes: 10,
    entries: 2,
    ...over,
  }) as UploadCommand;

describe('upload decider', () => {
  it('opens an upload for its principal', () => {
    given(uploads)
      .when({
        kind: 'open',
        uploadId: 'upl_1',
        principalId: 'u1',
        maxBytes: 1000,
        expiresAt: new Date(NOW + 60_000).toISOString(),
      })
      .then(opened);
  });

  it('records what its principal sent, once', () => {
    given(uploads, opened).when(receive()).then(received);
    given(uploads, opened, received)
      .when(receive())
      .thenRefused('CONFLICT', /already/);
  });

  it("treats another principal's upload as unknown", () => {
    given(uploads, opened)
      .when(receive({ principalId: 'u2' }))
      .thenRefused('NOT_FOUND');
  });

  it('refuses an unknown or expired upload as not found', () => {
    given(uploads).when(receive()).thenRefused('NOT_FOUND');
    given(uploads, opened)
      .when(receive({ now: NOW + 60_000 }))
      .thenRefused('NOT_FOUND', /expired/);
  });

  it('refuses more bytes than the upload allows', () => {
    given(uploads, opened)
      .when(receive({ bytes: 1001 }))
      .thenRefused('CONFLICT', /limit/);
  });
});
