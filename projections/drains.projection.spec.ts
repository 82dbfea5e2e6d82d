import { describe, it } from '@jest/globals';
import { DrainConfigured, DrainRemoved } from '../src/events/drains.events.js';
import { drainsProjection } from './drains.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const settings = {
  drainId: 'siem',
  displayName: 'SIEM',
  kind: 'otlp' as const,
  endpoint: 'https://collector.example/v1/logs',
  caCertificate: null,
  sealedHeaders: 'v2.sealed',
  headerNames: ['authorization'],
  sources: ['audit' as const],
  enabled: true,
  fromPosition: 12,
};

describe('drains projection', () => {
  it('Given a drain configured, Then it is listed with its header names but not their values', () => {
    givenProjection(drainsProjection)
      .given(DrainConfigured(settings))
      .then({
        drains: {
          siem: {
            id: 'siem',
            displayName: 'SIEM',
            kind: 'otlp',
            endpoint: 'https://collector.example/v1/logs',
            caCertificate: null,
            headerNames: ['authorization'],
            sources: ['audit'],
            enabled: true,
            fromPosition: 12,
            configuredAt: at(0),
            configuredBy: null,
          },
        },
      });
  });

  it('Given a drain configured then removed, Then nothing is listed', () => {
    givenProjection(drainsProjection)
      .given(DrainConfigured(settings), DrainRemoved({ drainId: 'siem' }))
      .then({ drains: {} });
  });
});
