/** What deliveries from GitHub, GitLab and Gitea share: how their fields are read. */

export type Json = Record<string, unknown>;
/** An object field of a delivery, or an empty one. */
export const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
/**
 * A text field of a delivery, cleaned for the record: printable, no direction overrides, spaces
 * collapsed, at most `max` characters; null when empty or not text.
 */
export const text = (value: unknown, max = 200): string | null =>
  typeof value === 'string' && value.length
    ? value
        .replace(/[^\x20-\x7e\u00a0-\uffff]+/g, ' ')
        // Direction overrides would make a message read otherwise than it is.
        .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
        .replace(/ {2,}/g, ' ')
        .trim()
        .slice(0, max) || null
    : null;
/** The first line of a commit message, cleaned like `text`. */
export const firstLine = (value: unknown) =>
  text(typeof value === 'string' ? value.split('\n')[0] : null);

/** A full commit id: SHA-1, or SHA-256 in repositories that use it. */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
