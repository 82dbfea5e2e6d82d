import { IsBoolean, IsIn, IsInt, IsNumber, IsUUID, Matches, Max, Min } from 'class-validator';
import { field, PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { AlertMetric } from '../../events/alerts.events.js';

export const ALERT_METRICS = [
  'cpuPercent',
  'memoryPercent',
  'memoryBytes',
  'diskPercent',
  'dockerDiskBytes',
] as const satisfies readonly AlertMetric[];

/** What a server rule and a service (container) rule may watch. */
export const SERVER_METRICS: readonly AlertMetric[] = [
  'cpuPercent',
  'memoryPercent',
  'diskPercent',
  'dockerDiskBytes',
];
export const CONTAINER_METRICS: readonly AlertMetric[] = [
  'cpuPercent',
  'memoryPercent',
  'memoryBytes',
];

/** Up to 30 days back. */
const MAX_HOURS = 720;

/** A threshold: a number, 0 or more, two decimals at most (a percentage's is checked as such). */
const Threshold = () =>
  field(
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }),
    Min(0),
    Max(1e15),
  );

export class SetAlertRuleInput {
  /** The rule to change; left out, a new rule is made and its id answered. */
  @Omittable()
  @IsUUID()
  ruleId?: string;

  /** The server the rule watches; or `serviceId`, not both. */
  @Omittable()
  @IsUUID()
  serverId?: string;

  /** The service whose every container the rule watches; or `serverId`, not both. */
  @Omittable()
  @IsUUID()
  serviceId?: string;

  /** `[a-z0-9-]`, 1-40. */
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: 'name is 1-40 lower-case letters, digits and -',
  })
  name!: string;

  /** Servers: cpuPercent, memoryPercent, diskPercent, dockerDiskBytes; containers: cpuPercent, memoryPercent, memoryBytes. */
  @IsIn(ALERT_METRICS)
  metric!: AlertMetric;

  /** At or above this for `forSeconds`: a warning. Percentages 0-100. */
  @Omittable()
  @Threshold()
  warning?: number;

  /** At or above this for `forSeconds`: critical. */
  @Omittable()
  @Threshold()
  critical?: number;

  /** How long the metric must stay at or above a threshold; default 300, at most 3600. */
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(3600)
  forSeconds?: number;

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class AlertRuleIdInput {
  @IsUUID()
  ruleId!: string;
}

/** A server or a service: one of the two. */
export class AlertScopeInput {
  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @IsUUID()
  serviceId?: string;
}

export class AlertsInput extends AlertScopeInput {
  /** `open` (default) or `all`, newest first. */
  @Omittable()
  @IsIn(['open', 'all'])
  status?: 'open' | 'all';

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class ServerMetricsInput {
  @IsUUID()
  serverId!: string;

  /** How far back, in hours (1-720); default 6. */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_HOURS)
  hours?: number;
}

export class ServiceMetricsInput {
  @IsUUID()
  serviceId!: string;

  /** How far back, in hours (1-720); default 6. */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_HOURS)
  hours?: number;
}
