import { IsIn, Matches } from 'class-validator';
import { Omittable } from '../../common/omittable.js';

const POSITION_OR_TIME =
  /^([1-9][0-9]{0,15}|\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?)$/;

/** Query string of `GET /api/v1/audit/export`. `from`/`to`: a position or an ISO 8601 time. */
export class AuditExportQuery {
  @Omittable()
  @IsIn(['ndjson', 'csv'])
  format?: 'ndjson' | 'csv';

  @Omittable()
  @Matches(POSITION_OR_TIME, { message: 'from must be a position or an ISO 8601 time' })
  from?: string;

  @Omittable()
  @Matches(POSITION_OR_TIME, { message: 'to must be a position or an ISO 8601 time' })
  to?: string;
}
