import type { ServiceRoute } from '../../events/deployments.events.js';

export type Strategy = 'gapless' | 'recreate';

/** How one compose service of a stack is replaced by a deployment, and why. */
export interface ServiceStrategy {
  service: string;
  strategy: Strategy;
  why: string;
}

type ComposeService = Record<string, unknown>;

/** `x-slipway: {strategy: recreate}` on a compose service: it must never run twice. */
function markedRecreate(service: ComposeService): boolean {
  const extension = service['x-slipway'];
  return (
    typeof extension === 'object' &&
    extension !== null &&
    (extension as { strategy?: unknown }).strategy === 'recreate'
  );
}

function recreateReason(name: string, service: ComposeService, routed: boolean): string | null {
  if (markedRecreate(service)) return 'x-slipway.strategy is recreate';
  if (!routed) return 'no route: nothing to switch';
  if (Array.isArray(service.ports) && service.ports.length)
    return 'publishes ports on the host (two versions cannot bind them at once)';
  if (service.container_name !== undefined) return 'sets container_name (one name, one container)';
  if (service.network_mode !== undefined) return 'sets network_mode';
  return name ? null : 'no name';
}

/**
 * Per compose service: `gapless` when the edge proxy routes to it and two versions can run side
 * by side (the new one starts beside the old, the proxy switches once it is healthy, the old is
 * retired), else `recreate` (compose replaces it in place: a short gap, and a failed new version
 * leaves it down).
 */
export function deployStrategies(
  document: unknown,
  routes: readonly ServiceRoute[] | undefined,
): ServiceStrategy[] {
  const services =
    (document as { services?: Record<string, ComposeService> } | null)?.services ?? {};
  const routed = new Set((routes ?? []).map((r) => r.service));
  return Object.entries(services).map(([name, service]) => {
    const why = recreateReason(name, service ?? {}, routed.has(name));
    return why
      ? { service: name, strategy: 'recreate', why }
      : { service: name, strategy: 'gapless', why: 'routed; starts beside the running version' };
  });
}
