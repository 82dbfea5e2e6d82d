/**
 * Bounds on a compose definition, checked before it is composed into a document: parsing runs on
 * the event loop, so its cost must be small whatever the input. Real compose files are far below
 * all of these (a 30-service stack is ~50 KB and ~2,000 nodes).
 */
export const COMPOSE_LIMITS = {
  /** Characters of YAML text. */
  maxChars: 256 * 1024,
  /** Scalars, aliases and collections together (a mapping pair counts its key and its value). */
  maxNodes: 10_000,
  /** Collections nested in collections. */
  maxDepth: 32,
  /** Alias references (`*name`); each may expand to a whole anchored subtree. */
  maxAliases: 100,
} as const;
