import { expect } from '@jest/globals';
import { projectInMemory, type InMemoryModel } from '../project-in-memory.js';
import type { Projection } from '../projection.js';
import { given as recorded, type GivenEvent } from './given-events.js';
import { readModelViolations } from './read-model-schema.js';

/** Documents by collection, then by id; in `thenMatches`, only the fields that matter. */
type Documents = Record<string, Record<string, Record<string, unknown>>>;

/**
 * Given/Then for projections: `givenProjection(projection).given(...events)` and then
 *
 * - `.then(documents)`: the projection's collections hold exactly these documents (a collection
 *   left out is empty);
 * - `.thenMatches(documents)`: they hold exactly these documents by id, each with at least the
 *   fields given.
 *
 * The events are recorded one second apart from `at(0)` (see given-events.ts) and folded through
 * the projection's own handlers by `projectInMemory`, the fold the runner is checked against.
 */
export function givenProjection(projection: Projection) {
  return {
    given(...events: GivenEvent[]) {
      const documents = () => {
        const model = projectInMemory(projection, recorded(events));
        // Every document a Given/Then folds must also fit contract/read-models.json.
        const violations = Object.entries(model).flatMap(([name, docs]) =>
          readModelViolations(
            name,
            Object.values(docs).map((d) => ({ ...d, _position: 1 })),
          ),
        );
        expect(violations).toEqual([]);
        return model;
      };
      const withEveryCollection = (expected: Documents): Documents => ({
        ...Object.fromEntries(projection.collections.map((c) => [c.name, {}])),
        ...expected,
      });
      return {
        then(expected: Documents): void {
          expect(documents()).toEqual(withEveryCollection(expected));
        },
        thenMatches(expected: Documents): void {
          const actual = documents();
          expect(idsOf(actual)).toEqual(idsOf(withEveryCollection(expected)));
          expect(actual).toMatchObject(expected);
        },
      };
    },
  };
}

function idsOf(documents: InMemoryModel | Documents): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(documents).map(([name, docs]) => [name, Object.keys(docs).sort()]),
  );
}
