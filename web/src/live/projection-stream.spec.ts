import { describe, expect, it } from '@jest/globals';
import { changedReadModels } from './projection-stream';

const message = (positions: Record<string, number>) =>
  JSON.stringify({
    at: '2026-11-23T00:00:00.000Z',
    projections: Object.entries(positions).map(([name, position]) => ({ name, position })),
  });

describe('changedReadModels', () => {
  it('Given the first message, then nothing has moved yet', () => {
    expect(changedReadModels(new Map(), message({ deployments: 4, approvals: 2 }))).toEqual([]);
  });

  it('Given a position that moved, then only that read model is named', () => {
    const seen = new Map<string, number>();
    changedReadModels(seen, message({ deployments: 4, approvals: 2 }));
    expect(changedReadModels(seen, message({ deployments: 6, approvals: 2 }))).toEqual([
      'deployments',
    ]);
    expect(changedReadModels(seen, message({ deployments: 6, approvals: 2 }))).toEqual([]);
  });

  it('Given a message that is not JSON, then nothing moved and nothing throws', () => {
    expect(changedReadModels(new Map(), 'not json')).toEqual([]);
  });
});
