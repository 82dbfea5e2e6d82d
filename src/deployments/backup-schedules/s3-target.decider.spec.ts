import { describe, it } from '@jest/globals';
import { S3TargetConfigured, S3TargetRemoved } from '../../events/backup-schedules.events.js';
import { given } from '../../storage/testing/given.js';
import { s3TargetDecider as target } from './s3-target.decider.js';

const settings = {
  targetId: 'archive',
  displayName: 'Archive',
  endpoint: 'https://s3.example.com',
  region: 'eu-west-1',
  bucket: 'backups',
  prefix: 'slipway/',
  accessKeyId: 'AKIA1',
};
const configured = S3TargetConfigured({ ...settings, sealedSecretAccessKey: 'sealed-1' });

describe('S3 target decider', () => {
  it('Given none, When configured with its secret, Then configured; without, Then refused', () => {
    given(target)
      .when({ kind: 'configure', settings, sealedSecretAccessKey: 'sealed-1' })
      .then(configured);
    given(target)
      .when({ kind: 'configure', settings, sealedSecretAccessKey: null })
      .thenRefused('CONFLICT', /secret access key/);
  });

  it('Given a target, When configured again without a secret, Then it keeps its own', () => {
    given(target, configured)
      .when({ kind: 'configure', settings, sealedSecretAccessKey: null })
      .thenNothing();
    given(target, configured)
      .when({
        kind: 'configure',
        settings: { ...settings, bucket: 'other' },
        sealedSecretAccessKey: null,
      })
      .then(
        S3TargetConfigured({ ...settings, bucket: 'other', sealedSecretAccessKey: 'sealed-1' }),
      );
  });

  it('Given a target, When removed, Then gone; Given none, removing is refused', () => {
    given(target, configured)
      .when({ kind: 'remove', targetId: 'archive' })
      .then(S3TargetRemoved({ targetId: 'archive' }));
    given(target)
      .when({ kind: 'remove', targetId: 'archive' })
      .thenRefused('NOT_FOUND', /No such/);
  });
});
