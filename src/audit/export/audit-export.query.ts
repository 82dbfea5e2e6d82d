import { IsIn, IsOptional, Matches } from 'class-validator';

const POSITION_OR_TIME =
  /^([1-9][0-9]{0,15}|\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?)$/;

/** Query string of `GET /api/v1/audit/export`. `from`/`to`: a position or an ISO 8601 time. */
export class AuditExportQuery {
  @IsOptional()
  @IsIn(['ndjson', 'csv'])
  format?: 'ndjson' | 'csv';

  @IsOptional()
  @Matches(POSITION_OR_TIME, { message: 'from must be a position or an ISO 8601 time' })
  from?: string;

  @IsOptional()
  @Matches(POSITION_OR_TIME, { message: 'to must be a position or an ISO 8601 time' })
  to?: string;
}
