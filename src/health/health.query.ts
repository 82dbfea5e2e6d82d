import { Query } from '@nestjs/cqrs';
import type { HealthReport } from './health-report.js';

export class HealthQuery extends Query<HealthReport> {}
