import { IsUUID } from 'class-validator';
import { PageCursor, PageLimit } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';

/**
 * A page of a list, of one service when it is named (which must exist): the input of `backups`
 * and `deployWebhooks`.
 */
export class ServicePageInput {
  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
