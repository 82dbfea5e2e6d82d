import { describe, expect, it } from '@jest/globals';
import { validateCompose } from './compose.js';

describe('compose validation', () => {
  it('summarises services, images, ports and volumes', () => {
    const result = validateCompose(`
services:
  web:
    image: ghcr.io/acme/web:1.2.3
    ports: ["8080:80", "443:443/tcp"]
    volumes: ["data:/var/lib/web"]
  worker:
    image: ghcr.io/acme/worker@sha256:${'b'.repeat(64)}
volumes:
  data: {}
`);
    expect(result).toEqual({
      ok: true,
      summary: {
        services: [
          {
            name: 'web',
            image: 'ghcr.io/acme/web:1.2.3',
            builds: false,
            ports: ['8080:80', '443:443'],
            volumes: ['data:/var/lib/web'],
          },
          {
            name: 'worker',
            image: `ghcr.io/acme/worker@sha256:${'b'.repeat(64)}`,
            builds: false,
            ports: [],
            volumes: [],
          },
        ],
        document: expect.objectContaining({ services: expect.any(Object) }),
        unset: [],
      },
    });
  });

  it.each([
    ['not yaml: [', 'compose'],
    ['version: "3"', 'compose.services'],
    ['services:\n  web:\n    ports: ["80"]', 'compose.services.web.image'],
    ['services:\n  web:\n    image: nginx', 'compose.services.web.image'],
    [
      'services:\n  web:\n    image: nginx:1\n    ports: ["eighty"]',
      'compose.services.web.ports[0]',
    ],
    ['services:\n  web:\n    image: nginx:1\n    ports: "80:80"', 'compose.services.web.ports'],
    ['services:\n  "bad name!":\n    image: nginx:1', 'compose.services.bad name!'],
  ])('refuses %j at %s', (text, path) => {
    const result = validateCompose(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.path)).toContain(path);
  });

  it('shows the pinned references to write for an untagged image', () => {
    for (const image of ['postgres', 'library/nginx', 'registry.example.com:5000/team/app']) {
      const result = validateCompose(`services:\n  db:\n    image: ${image}\n`);
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.issues).toEqual([
          {
            path: 'compose.services.db.image',
            message: expect.stringContaining(
              `pin it: ${image}:<version> or ${image}@sha256:<digest>`,
            ),
          },
        ]);
    }
    const missing = validateCompose('services:\n  db:\n    ports: ["80"]\n');
    expect(missing.ok).toBe(false);
    if (!missing.ok)
      expect(missing.issues[0].message).toBe(
        'needs image: (a reference with a tag or digest) or build:',
      );
  });

  it("refuses Slipway's own names: its edge network, its proxy's aliases", () => {
    const refused = (compose: string) => {
      const result = validateCompose(compose);
      return result.ok ? [] : result.issues.map((i) => i.path);
    };
    const image = 'image: ghcr.io/acme/web:1.2.3';
    expect(
      refused(
        `services:\n  web:\n    ${image}\n    networks: [slipway-edge]\nnetworks:\n  slipway-edge: {}\n`,
      ),
    ).toEqual(
      expect.arrayContaining([
        'compose.networks.slipway-edge',
        'compose.services.web.networks.slipway-edge',
      ]),
    );
    expect(
      refused(
        `services:\n  web:\n    ${image}\n    networks:\n      front: {aliases: [slipway-0a1b2c]}\nnetworks:\n  front: {}\n`,
      ),
    ).toEqual(['compose.services.web.networks.front']);
    expect(
      refused(`services:\n  web:\n    ${image}\n    container_name: slipway-0a1b2c\n`),
    ).toEqual(['compose.services.web.container_name']);
    expect(refused(`services:\n  slipway-0a1b2c:\n    ${image}\n`)).toEqual([
      'compose.services.slipway-0a1b2c',
    ]);
    expect(
      refused(`services:\n  web:\n    ${image}\nnetworks:\n  front: {name: slipway-edge}\n`),
    ).toEqual(['compose.networks.front']);
    expect(
      refused(`services:\n  slipway:\n    ${image}\n    container_name: my-slipway-web\n`),
    ).toEqual([]);
  });

  it('refuses a billion-laughs alias bomb', () => {
    const bomb =
      'a: &a ["x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nservices: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
    expect(validateCompose(bomb).ok).toBe(false);
  });
});
