import { startSlipway } from './http-load.js';

export interface LoginTimingResult {
  wrongEmailMedianMs: number;
  wrongPasswordMedianMs: number;
  ratio: number;
  samples: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeLogin(
  url: string,
  email: string,
  password: string,
  client: string,
): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    // Each attempt from its own address (through the trusted proxy header), so that throttling,
    // which would answer 429 long before 40 samples, stays out of the measurement.
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': client },
    body: JSON.stringify({ email, password }),
  });
  await res.text();
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Wrong email and wrong password, interleaved, so that both see the same machine state. */
export async function benchLoginTiming(samples: number): Promise<LoginTimingResult> {
  // Open sign-up: the accounts after the owner need no invite.
  const slipway = await startSlipway({ SLIPWAY_TRUST_PROXY: 'true', SLIPWAY_OPEN_SIGNUP: 'true' });
  const { url } = slipway;
  try {
    // One account per sample: an account is locked after 5 failures.
    for (let i = 0; i < samples; i++) {
      const signUp = await fetch(`${url}/api/auth/sign-up`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: `real${i}@example.com`,
          password: 'the real password',
          name: 'R',
        }),
      });
      if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status}`);
    }
    const wrongEmail: number[] = [];
    const wrongPassword: number[] = [];
    const client = (i: number, side: number) => `10.${side}.${i >> 8}.${i & 255}`;
    for (let i = 0; i < samples; i++) {
      wrongEmail.push(
        await timeLogin(url, `nobody${i}@example.com`, 'the real password', client(i, 1)),
      );
      wrongPassword.push(
        await timeLogin(url, `real${i}@example.com`, `wrong password ${i}`, client(i, 2)),
      );
    }
    const a = median(wrongEmail);
    const b = median(wrongPassword);
    return { wrongEmailMedianMs: a, wrongPasswordMedianMs: b, ratio: a / b, samples };
  } finally {
    await slipway.stop();
  }
}
