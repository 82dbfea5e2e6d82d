import { describe, it } from '@jest/globals';
import { DrainConfigured, DrainRemoved, type DrainSettings } from '../events/drains.events.js';
import { given } from '../storage/testing/given.js';
import { drainDecider as drain, type DrainCommand } from './drain.decider.js';

const settings = {
  drainId: 'siem',
  displayName: 'SIEM',
  kind: 'otlp' as const,
  endpoint: 'https://collector.example/v1/logs',
  caCertificate: null,
  sources: ['audit' as const],
  enabled: true,
};
const configure = (over: Partial<Extract<DrainCommand, { kind: 'configure' }>> = {}) =>
  ({ kind: 'configure', settings, headers: 'none', fromPosition: 40, ...over }) as DrainCommand;
const stored = (over: Partial<DrainSettings> = {}): DrainSettings => ({
  ...settings,
  sealedHeaders: null,
  headerNames: [],
  fromPosition: 40,
  ...over,
});
const withKey = DrainConfigured(
  stored({ sealedHeaders: 'sealed-1', headerNames: ['authorization'] }),
);

describe('drain decider', () => {
  it('Given nothing, When a drain is configured, Then it starts where the command says', () => {
    given(drain).when(configure()).then(DrainConfigured(stored()));
  });

  it('Given a drain, When it is configured the same, Then nothing is recorded', () => {
    given(drain, DrainConfigured(stored())).when(configure()).thenNothing();
  });

  it('Given a drain, When its endpoint changes, Then it keeps the position it started from', () => {
    given(drain, DrainConfigured(stored()))
      .when(
        configure({
          settings: { ...settings, endpoint: 'https://other.example/v1/logs' },
          fromPosition: 900,
        }),
      )
      .then(DrainConfigured(stored({ endpoint: 'https://other.example/v1/logs' })));
  });

  it('Given headers, When configured with `keep`, Then they stay; with `none` they go', () => {
    given(drain, withKey)
      .when(configure({ headers: 'keep' }))
      .thenNothing();
    given(drain, withKey)
      .when(configure({ headers: 'none' }))
      .then(DrainConfigured(stored()));
  });

  it('Given headers, When the endpoint changes and they are left out, Then it is refused', () => {
    const elsewhere = { ...settings, endpoint: 'https://attacker.example/v1/logs' };
    given(drain, withKey)
      .when(configure({ settings: elsewhere, headers: 'keep' }))
      .thenRefused('CONFLICT', /give the headers again/);
  });

  it('Given headers, When the endpoint changes and they are given again, Then they go with it', () => {
    const elsewhere = { ...settings, endpoint: 'https://other.example/v1/logs' };
    const same = { sealed: 'sealed-1', names: ['authorization'] };
    given(drain, withKey)
      .when(configure({ settings: elsewhere, headers: same }))
      .then(
        DrainConfigured(
          stored({
            sealedHeaders: 'sealed-1',
            headerNames: ['authorization'],
            endpoint: elsewhere.endpoint,
          }),
        ),
      );
    given(drain, withKey)
      .when(configure({ settings: elsewhere, headers: 'none' }))
      .then(DrainConfigured(stored({ endpoint: elsewhere.endpoint })));
  });

  it('Given headers, When the drain becomes syslog, Then they are dropped', () => {
    const syslog = { ...settings, kind: 'syslog' as const, endpoint: 'tls://logs.example:6514' };
    given(drain, withKey)
      .when(configure({ settings: syslog, headers: 'keep' }))
      .then(DrainConfigured(stored({ kind: 'syslog', endpoint: 'tls://logs.example:6514' })));
  });

  it('When a syslog drain is given headers, Then it is refused', () => {
    const syslog = { ...settings, kind: 'syslog' as const, endpoint: 'tls://logs.example:6514' };
    given(drain)
      .when(configure({ settings: syslog, headers: { sealed: 's', names: ['x-key'] } }))
      .thenRefused('CONFLICT', /Only OTLP/);
  });

  it('Given a drain, When removed, Then it is gone; Given none, removing is refused', () => {
    given(drain, DrainConfigured(stored()))
      .when({ kind: 'remove', drainId: 'siem' })
      .then(DrainRemoved({ drainId: 'siem' }));
    given(drain)
      .when({ kind: 'remove', drainId: 'siem' })
      .thenRefused('NOT_FOUND', /No such/);
  });

  it('Given a removed drain, When configured again, Then it starts afresh from the new position', () => {
    given(drain, DrainConfigured(stored()), DrainRemoved({ drainId: 'siem' }))
      .when(configure({ fromPosition: 77 }))
      .then(DrainConfigured(stored({ fromPosition: 77 })));
  });
});
