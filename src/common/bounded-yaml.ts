import {
  Composer,
  CST,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  Parser,
  type Document,
  type Tags,
  type YAMLError,
} from 'yaml';
import type { FieldIssue } from './app-error.js';

/** Bounds a YAML document must keep before it is composed (see parseBoundedYaml). */
export interface YamlLimits {
  maxChars: number;
  /** Lexical tokens of any kind (comments, line breaks and indentation included). */
  maxTokens: number;
  maxNodes: number;
  maxDepth: number;
  maxAliases: number;
}

/** How the document is read: YAML 1.2, optionally with the `<<` merge keys of YAML 1.1. */
export interface YamlReading {
  /**
   * Resolve `<<: *base` merge keys everywhere (in maps inside lists too), as Compose does. A `<<`
   * key left over (a quoted one, which is no merge) is refused: nothing ambiguous is let through.
   */
  mergeKeys?: boolean;
  /** Local tags the document may use (Compose's `!reset`, `!override`); any other is refused. */
  customTags?: Tags;
}

export type YamlResult =
  { ok: true; value: unknown } | { ok: false; cause: 'limits' | 'syntax'; issues: FieldIssue[] };

/**
 * Parses YAML from a user without letting it stall the event loop or write to the logs.
 *
 * - Characters are counted first; then, in one pass, the lexer's tokens are counted as they come
 *   (scalars, aliases, flow collections, sequence items; flow nesting) and fed to the parser, so
 *   a document over the limits is refused after at most ~maxNodes tokens, however long it is.
 *   The concrete syntax tree built meanwhile is then measured exactly (block nesting too)
 *   before anything is composed. Lexing, the tree and the measure are linear, without recursion.
 * - It is then composed with `uniqueKeys: false`: the library's own duplicate check compares
 *   each new key with every earlier key of its map, which is quadratic (60,000 keys: ~1 min).
 *   Duplicates are found here instead, with a set per map.
 * - Errors *and warnings* of the parser become issues for the caller; nothing is printed (the
 *   library would otherwise `process.emitWarning` user text).
 */
export function parseBoundedYaml(
  text: string,
  path: string,
  limits: YamlLimits,
  reading: YamlReading = {},
): YamlResult {
  if (text.length > limits.maxChars) {
    return refuse('limits', path, `is longer than ${limits.maxChars} characters`);
  }
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0); // Parser.parse() would; driving it token by token, we do
  const scan = new TokenScan(limits);
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    const overLimit = scan.take(lexeme);
    if (overLimit) return refuse('limits', path, overLimit);
    tokens.push(...parser.next(lexeme));
  }
  tokens.push(...parser.end());
  const overLimit = measure(tokens, limits);
  if (overLimit) return refuse('limits', path, overLimit);

  const merge = reading.mergeKeys === true;
  const composer = new Composer({
    uniqueKeys: false,
    logLevel: 'error',
    version: '1.2',
    merge,
    customTags: reading.customTags ?? null,
  });
  const docs = [...composer.compose(tokens, true, text.length)];
  if (docs.length !== 1) return refuse('syntax', path, 'must be a single YAML document');
  const doc = docs[0];
  const problems = [...doc.errors, ...doc.warnings].map((e) => describeError(e, lines));
  problems.push(...keyProblems(doc, lines));
  if (problems.length > 0) {
    return {
      ok: false,
      cause: 'syntax',
      issues: problems.slice(0, 20).map((message) => ({ path, message })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    // A merge source that is not a map lands here too: refused, never read half-merged.
    const message = firstLine((error as Error).message);
    return refuse(/merge/i.test(message) ? 'syntax' : 'limits', path, message);
  }
  if (merge && hasKey(value, '<<')) {
    return refuse('syntax', path, 'has a "<<" key that is not a merge key (quoted?)');
  }
  return { ok: true, value };
}

/** Whether any map in a composed value (aliases already expanded) has the key. */
function hasKey(value: unknown, key: string): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    else {
      if (Object.prototype.hasOwnProperty.call(node, key)) return true;
      stack.push(...Object.values(node));
    }
  }
  return false;
}

function refuse(cause: 'limits' | 'syntax', path: string, message: string): YamlResult {
  return { ok: false, cause, issues: [{ path, message: `${path} ${message}` }] };
}

/**
 * Counts lexer tokens, those that become nodes (an upper bound of the tree's count) and flow
 * depth.
 */
class TokenScan {
  private tokens = 0;
  private nodes = 0;
  private aliases = 0;
  private flowDepth = 0;

  constructor(private readonly limits: YamlLimits) {}

  take(lexeme: string): string | null {
    if (++this.tokens > this.limits.maxTokens) {
      return `has more than ${this.limits.maxTokens} tokens (words, symbols, line breaks)`;
    }
    switch (CST.tokenType(lexeme)) {
      case 'alias':
        if (++this.aliases > this.limits.maxAliases) {
          return `has more than ${this.limits.maxAliases} aliases`;
        }
        return this.node();
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'seq-item-ind':
        return this.node();
      case 'flow-map-start':
      case 'flow-seq-start':
        if (++this.flowDepth > this.limits.maxDepth) {
          return `is nested deeper than ${this.limits.maxDepth} levels`;
        }
        return this.node();
      case 'flow-map-end':
      case 'flow-seq-end':
        this.flowDepth = Math.max(0, this.flowDepth - 1);
        return null;
      default:
        return null;
    }
  }

  private node(): string | null {
    return ++this.nodes > this.limits.maxNodes
      ? `has more than ${this.limits.maxNodes} nodes`
      : null;
  }
}

/** Walks the syntax tree with an explicit stack; stops at the first limit crossed. */
function measure(tokens: CST.Token[], limits: YamlLimits): string | null {
  let nodes = 0;
  let aliases = 0;
  const stack: { token: CST.Token; depth: number }[] = tokens
    .filter((t): t is CST.Document => t.type === 'document' && t.value !== undefined)
    .map((t) => ({ token: t.value!, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (++nodes > limits.maxNodes) return `has more than ${limits.maxNodes} nodes`;
    if (token.type === 'alias' && ++aliases > limits.maxAliases) {
      return `has more than ${limits.maxAliases} aliases`;
    }
    if (!('items' in token)) continue;
    if (depth >= limits.maxDepth) return `is nested deeper than ${limits.maxDepth} levels`;
    for (const item of token.items) {
      if (item.key) stack.push({ token: item.key, depth: depth + 1 });
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
    }
  }
  return null;
}

/** Map keys must be plain values and unique within their map (checked in linear time). */
function keyProblems(doc: Document, lines: LineCounter): string[] {
  const problems: string[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0 && problems.length < 20) {
    const node = stack.pop();
    if (isSeq(node)) stack.push(...node.items);
    if (!isMap(node)) continue;
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = pair.key;
      if (key !== null && !isScalar(key)) {
        problems.push(`a map key must be a plain value${at(key, lines)}`);
      } else {
        const name = String(key?.value ?? '');
        if (seen.has(name)) problems.push(`duplicate key ${quote(name)}${at(key, lines)}`);
        seen.add(name);
      }
      stack.push(pair.value);
    }
  }
  return problems;
}

function describeError(error: YAMLError, lines: LineCounter): string {
  const { line, col } = lines.linePos(error.pos[0]);
  return `${firstLine(error.message)} (line ${line}, column ${col})`;
}

function at(node: unknown, lines: LineCounter): string {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  if (!range) return '';
  const { line, col } = lines.linePos(range[0]);
  return ` (line ${line}, column ${col})`;
}

/** User text echoed in an issue: one line, bounded, quoted. */
function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function firstLine(message: string): string {
  const line = message.split('\n')[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
