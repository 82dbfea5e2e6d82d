import { request } from 'node:http';

/**
 * What the edge proxy listening on loopback `port` answers for `host` and `path`: `<status>
 * <body>`, or `unreachable: <why>`. A connection per request: a kept-alive one closed by a
 * configuration reload while idle is the client's to retry, not a failed request.
 */
export function viaEdge(port: number, host: string, path: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { Host: host }, timeout: 5000, agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve(`unreachable: ${error.message}`));
    req.end();
  });
}

/**
 * Requests through the proxy one after another until stopped, to each host in turn (`ask`
 * sends one: by default plain HTTP to `/version` on loopback `port`): how many of each answer,
 * and every failure (anything but a 200) with its time.
 */
export function traffic(
  port: number,
  hosts: string[],
  ask: (host: string) => Promise<string> = (host) => viaEdge(port, host, '/version'),
) {
  const answers = new Map<string, number>();
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const host = hosts[i % hosts.length];
      const answer = await ask(host);
      if (/^200 /.test(answer)) answers.set(answer, (answers.get(answer) ?? 0) + 1);
      else failures.push(`${new Date().toISOString()} ${host}: ${answer}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { answers: Object.fromEntries(answers), failures };
    },
  };
}
