import { PageCursor, PageLimit } from '../common/field-rules.js';

/** A page of a list (`agents`, `members`); `tokens` extends it with a filter. */
export class PageInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
