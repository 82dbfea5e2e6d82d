import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Procedure } from '../rpc/procedure.js';
import type { HealthReport } from './health-report.js';
import { HealthQuery } from './health.query.js';

@Injectable()
export class HealthProcedures {
  constructor(private readonly queries: QueryBus) {}

  @Procedure({
    name: 'health',
    lane: 'read',
    auth: 'public',
    roles: [],
    scopes: [],
    description: 'Service status, version, store readiness and projection lag. No credentials.',
  })
  health(): Promise<HealthReport> {
    return this.queries.execute(new HealthQuery());
  }
}
