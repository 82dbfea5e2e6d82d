import { describe, expect, it } from '@jest/globals';
import { httpsUrlOf } from './https-url.js';

describe('httpsUrlOf', () => {
  it('answers an https URL, or plain http on a loopback address, as parsed', () => {
    expect(httpsUrlOf('https://s3.example.com/x')).toEqual(new URL('https://s3.example.com/x'));
    for (const loopback of ['http://127.0.0.1:9000', 'http://[::1]:9000', 'http://localhost']) {
      expect(httpsUrlOf(loopback)).toBeInstanceOf(URL);
    }
  });

  it('says why anything else is refused', () => {
    expect(httpsUrlOf('s3.example.com')).toBe('must be an absolute URL');
    for (const other of [
      'http://s3.example.com',
      'http://127.0.0.1.example.com',
      'ftp://x.example',
    ]) {
      expect(httpsUrlOf(other)).toBe('must be an https URL (http only on a loopback address)');
    }
  });
});
