/** Consecutive events, by store position. */
export interface PositionRange {
  from: number;
  to: number;
}

interface Placed {
  place: number;
  position: number;
}

/** Ranges kept for the report; the count is always exact. */
const MAX_RANGES = 1000;

/**
 * Which sealed events a redacted one leaves tied to their checkpoint by the export signature
 * alone. The chain continues from a redacted event's given link, so nothing before it in the
 * same sealed stretch (after the previous checkpoint's last place), an earlier redacted event
 * included, feeds the checkpoint that seals the stretch any more.
 */
export class UnboundEvents {
  count = 0;
  readonly ranges: PositionRange[] = [];
  /** Events since the last checkpoint's place, or since the last redacted event after it. */
  private stretch: Placed[] = [];
  /** Events a later redacted one cut off, until a checkpoint seals them (or none ever does). */
  private cut: Placed[] = [];
  private lastPlace = -1;
  private full = false;

  /** Call for each event, with its place in the chain, before the verifier takes it. */
  event(place: number, position: number, redacted: boolean): void {
    if (redacted) {
      this.cut.push(...this.stretch);
      this.stretch = [];
    }
    this.stretch.push({ place, position });
  }

  /** A checkpoint sealed the chain up to `toPlace`. */
  sealed(toPlace: number): void {
    this.stretch = this.stretch.filter((e) => e.place > toPlace);
    for (const e of this.cut.filter((c) => c.place <= toPlace)) this.add(e);
    this.cut = this.cut.filter((e) => e.place > toPlace);
  }

  private add(e: Placed): void {
    this.count += 1;
    const last = this.ranges.at(-1);
    if (last && !this.full && e.place === this.lastPlace + 1) last.to = e.position;
    else if (this.ranges.length < MAX_RANGES)
      this.ranges.push({ from: e.position, to: e.position });
    else this.full = true;
    this.lastPlace = e.place;
  }
}

/** The first few ranges, as a verification message names them. */
export function rangesText(ranges: PositionRange[]): string {
  const shown = ranges
    .slice(0, 5)
    .map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`));
  return shown.join(', ') + (ranges.length > 5 ? ', …' : '');
}
