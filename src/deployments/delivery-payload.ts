/**
 * The JSON a delivery carries: the body itself (`application/json`), or GitHub's form encoding
 * (`application/x-www-form-urlencoded`, the JSON in its `payload` field). Null: not readable.
 */
export function deliveryPayload(contentType: string | undefined, body: Buffer): unknown {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  try {
    if (type === 'application/json') return JSON.parse(body.toString('utf8')) as unknown;
    if (type === 'application/x-www-form-urlencoded') {
      const payload = new URLSearchParams(body.toString('utf8')).get('payload');
      return payload === null ? null : (JSON.parse(payload) as unknown);
    }
  } catch {
    return null;
  }
  return null;
}
