/**
 * Bounds on a compose definition, checked while it is read and before it is composed: parsing
 * runs on the event loop, so its cost must stay small whatever the input. Real compose files are
 * far below all of these (a 30-service stack is ~50 KB, ~2,000 nodes).
 */
export const COMPOSE_LIMITS = {
  /** Characters of YAML text. */
  maxChars: 256 * 1024,
  /** Lexical tokens: words, symbols, comments, line breaks, indentation (~4 per node). */
  maxTokens: 60_000,
  /** Scalars, aliases, flow collections and sequence items (a pair: its key and its value). */
  maxNodes: 10_000,
  /** Collections nested in collections. */
  maxDepth: 32,
  /** Alias references (`*name`); each may expand to a whole anchored subtree. */
  maxAliases: 100,
} as const;
