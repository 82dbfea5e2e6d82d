import { IsUUID } from 'class-validator';
import type { IQueryHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import {
  ServiceObserver,
  type ServiceStatsReport,
  type ServiceStatusReport,
} from './service-observer.js';

// The REST observation routes as read procedures, so /trpc and MCP clients have them too: they
// read the server over SSH and record nothing. The observer serves both surfaces.

export class ServiceObservationInput {
  @IsUUID()
  serviceId!: string;
}

export class ServiceStatus extends ProcedureQuery<ServiceObservationInput, ServiceStatusReport> {}

@Procedure.read(ServiceStatus, {
  name: 'serviceStatus',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: ServiceObservationInput,
  description:
    "The service's containers as its server reports them now (docker compose ps + inspect): state, health, restarts, published ports, image digest.",
  project: { service: 'serviceId' },
})
export class ServiceStatusHandler implements IQueryHandler<ServiceStatus> {
  constructor(private readonly observer: ServiceObserver) {}

  execute({ input }: ServiceStatus): Promise<ServiceStatusReport> {
    return this.observer.status(input.serviceId);
  }
}

export class ServiceStats extends ProcedureQuery<ServiceObservationInput, ServiceStatsReport> {}

@Procedure.read(ServiceStats, {
  name: 'serviceStats',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: ServiceObservationInput,
  description:
    "CPU, memory, network and block I/O of the service's running containers (docker stats --no-stream).",
  project: { service: 'serviceId' },
})
export class ServiceStatsHandler implements IQueryHandler<ServiceStats> {
  constructor(private readonly observer: ServiceObserver) {}

  execute({ input }: ServiceStats): Promise<ServiceStatsReport> {
    return this.observer.stats(input.serviceId);
  }
}
