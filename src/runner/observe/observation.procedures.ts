import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { EVERYONE } from '../../kernel/roles.js';
import { ServiceObserver } from './service-observer.js';

export class ServiceObservationInput {
  @IsUUID()
  serviceId!: string;
}

/**
 * The REST observation routes as read procedures, so /trpc and MCP clients have them too: they
 * read the server over SSH and record nothing.
 */
@Injectable()
export class ObservationProcedures {
  constructor(private readonly observer: ServiceObserver) {}

  @Procedure.read({
    name: 'serviceStatus',
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    input: ServiceObservationInput,
    description:
      "The service's containers as its server reports them now (docker compose ps + inspect): state, health, restarts, published ports, image digest.",
  })
  serviceStatus(input: ServiceObservationInput) {
    return this.observer.status(input.serviceId);
  }

  @Procedure.read({
    name: 'serviceStats',
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    input: ServiceObservationInput,
    description:
      "CPU, memory, network and block I/O of the service's running containers (docker stats --no-stream).",
  })
  serviceStats(input: ServiceObservationInput) {
    return this.observer.stats(input.serviceId);
  }
}
