import { handlersFor, type Projection } from './projection.js';

/**
 * Which projections an append of some event types changes (a handler of their own or under
 * `*`): what the writer of those events waits for. Memoized per event type.
 */
export class AffectedProjections {
  private readonly byType = new Map<string, string[]>();

  constructor(private readonly projections: readonly Projection[]) {}

  of(types: Iterable<string>): string[] {
    const names = new Set<string>();
    for (const type of types) {
      let list = this.byType.get(type);
      if (!list) {
        list = this.projections
          .filter((projection) => handlersFor(projection, type).length > 0)
          .map((projection) => projection.name);
        this.byType.set(type, list);
      }
      for (const name of list) names.add(name);
    }
    return [...names];
  }
}
