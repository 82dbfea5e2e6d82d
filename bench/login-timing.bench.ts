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

async function timeLogin(url: string, email: string, password: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await res.text();
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Wrong email and wrong password, interleaved, so that both see the same machine state. */
export async function benchLoginTiming(samples: number): Promise<LoginTimingResult> {
  const slipway = await startSlipway();
  const { url } = slipway;
  try {
    const signUp = await fetch(`${url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'real@example.com', password: 'the real password', name: 'R' }),
    });
    if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status}`);
    const wrongEmail: number[] = [];
    const wrongPassword: number[] = [];
    for (let i = 0; i < samples; i++) {
      wrongEmail.push(await timeLogin(url, `nobody${i}@example.com`, 'the real password'));
      wrongPassword.push(await timeLogin(url, 'real@example.com', `wrong password ${i}`));
    }
    const a = median(wrongEmail);
    const b = median(wrongPassword);
    return { wrongEmailMedianMs: a, wrongPasswordMedianMs: b, ratio: a / b, samples };
  } finally {
    await slipway.stop();
  }
}
