/** What the catalog deciders' specs register: one server and one service on it. */

export const SERVER = {
  serverId: 's1',
  name: 'web-1',
  host: '127.0.0.5',
  sshPort: 22,
  sshUser: 'deploy',
  credentialCiphertext: 'c',
  hostKeyFingerprint: 'SHA256:abc',
  labels: {},
};

export const SERVICE = {
  serviceId: 'svc',
  name: 'api',
  environment: 'production',
  serverId: 's1',
  imageRepository: 'ghcr.io/acme/api',
  compose: 'services: {}',
  env: [],
  approvalRule: 'none' as const,
  healthCheckUrl: null,
  backupCommand: null,
};
