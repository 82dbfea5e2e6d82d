/** Where the audit watch's next pass starts, and whether the event store lost its end. */
export interface Stretch {
  from: number;
  /** The head is below one seen before: events were removed from the end of the store. */
  wentBack: boolean;
}

/**
 * From where the last pass stopped (`cursor`), the highest head seen and the head now: on from
 * the cursor, back to 1 once past the head (the cycle), and back to 1 when the head itself went
 * back, which never happens to an append-only store and is reported, not passed over.
 */
export function nextStretch(cursor: number, highestHead: number, head: number): Stretch {
  const wentBack = head < highestHead;
  return { from: wentBack || cursor > head ? 1 : cursor, wentBack };
}
