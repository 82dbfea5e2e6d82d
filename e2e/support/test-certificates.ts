import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * A CA of the test's own (`ca.pem`, `ca.key`) and a server certificate it signed (`cert.pem`,
 * `key.pem`) for `subjectAltName` (e.g. `DNS:localhost,IP:127.0.0.1`), valid two days, written
 * in `dir` with the openssl CLI.
 */
export function issueTestCertificates(
  dir: string,
  names: { ca: string; server: string; subjectAltName: string },
): void {
  const req = ['req', '-newkey', 'rsa:2048', '-nodes'];
  openssl(
    [
      ...req,
      '-x509',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${names.ca}`,
    ],
    dir,
  );
  openssl([...req, '-keyout', 'key.pem', '-out', 'csr.pem', '-subj', `/CN=${names.server}`], dir);
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=${names.subjectAltName}\n`);
  openssl(
    [
      ...['x509', '-req', '-in', 'csr.pem', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
      ...['-out', 'cert.pem', '-days', '2', '-extfile', 'san.ext'],
    ],
    dir,
  );
}
