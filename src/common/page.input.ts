import { PageCursor, PageLimit } from './field-rules.js';

/** A page of a list: at most `limit` items, from `cursor` on; lists with filters extend it. */
export class PageInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
