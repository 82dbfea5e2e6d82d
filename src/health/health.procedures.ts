import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure } from '../kernel/procedure.js';
import type { HealthReport, HealthSummary } from './health-report.js';
import { HealthHandler } from './health.handler.js';

@Injectable()
export class HealthProcedures {
  constructor(private readonly healthHandler: HealthHandler) {}

  @Procedure({
    name: 'health',
    lane: 'read',
    auth: 'public',
    roles: [],
    scopes: [],
    description:
      'Service status and version, without credentials. With any valid credential also uptime, ' +
      'store readiness, the event store head and each projection position, lag and status.',
  })
  async health(_input: undefined, ctx: RequestContext): Promise<HealthSummary | HealthReport> {
    const report = await this.healthHandler.execute();
    // Event counts and projection positions tell an outsider how busy the team is: callers only.
    if (ctx.principal) return report;
    return { status: report.status, version: report.version };
  }
}
