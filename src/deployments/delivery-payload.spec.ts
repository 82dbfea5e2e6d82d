import { describe, expect, it } from '@jest/globals';
import { deliveryPayload } from './delivery-payload.js';

const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main' }));

describe('deliveryPayload', () => {
  it('reads JSON bodies and GitHub’s form encoding', () => {
    expect(deliveryPayload('application/json; charset=utf-8', body)).toEqual({
      ref: 'refs/heads/main',
    });
    const form = Buffer.from(`payload=${encodeURIComponent(body.toString())}`);
    expect(deliveryPayload('application/x-www-form-urlencoded', form)).toEqual({
      ref: 'refs/heads/main',
    });
  });

  it('answers null for what is not a readable payload', () => {
    expect(deliveryPayload('application/json', Buffer.from('{'))).toBeNull();
    expect(deliveryPayload('application/x-www-form-urlencoded', Buffer.from('a=1'))).toBeNull();
    expect(deliveryPayload('text/plain', body)).toBeNull();
    expect(deliveryPayload(undefined, body)).toBeNull();
  });
});
