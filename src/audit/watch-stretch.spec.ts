import { describe, expect, it } from '@jest/globals';
import { nextStretch } from './watch-stretch.js';

describe('where the audit watch goes next', () => {
  it('Given a pass that stopped at 40, When the head is 100, Then it goes on from 40', () => {
    expect(nextStretch(40, 100, 100)).toEqual({ from: 40, wentBack: false });
  });

  it('Given a pass that reached the head, When nothing was appended since, Then it starts the cycle again', () => {
    expect(nextStretch(101, 100, 100)).toEqual({ from: 1, wentBack: false });
  });

  it('Given a head of 100 seen before, When the head is 60, Then the store lost its end', () => {
    expect(nextStretch(40, 100, 60)).toEqual({ from: 1, wentBack: true });
    expect(nextStretch(101, 100, 0)).toEqual({ from: 1, wentBack: true });
  });
});
