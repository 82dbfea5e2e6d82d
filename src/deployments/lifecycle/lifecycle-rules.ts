import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { conflict } from '../../common/app-error.js';

/** An archived service keeps its history and takes no new deployment nor change. */
export function assertServiceActive(service: ServiceDoc): void {
  if (service.status === 'archived') {
    throw conflict(`Service ${service.name} (${service.environment}) is archived`, {
      serviceId: service.id,
    });
  }
}

/** A decommissioned server takes no service and no deployment. */
export function assertServerInService(server: ServerDoc): void {
  if (server.status === 'decommissioned') {
    throw conflict(`Server ${server.name} is decommissioned`, { serverId: server.id });
  }
}
