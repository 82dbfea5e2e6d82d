import { actingAs, type RequestContext } from '../../kernel/request-context.js';

/**
 * A service's git source's webhook as the principal that acts for it: kind `agent`, role
 * `operator`, auth method `hook`, its id the service's. Push and pull request deliveries act as
 * it, and so does what the previews do after them.
 */
export function sourceWebhookContext(
  base: RequestContext,
  serviceId: string,
  name: string,
): RequestContext {
  return {
    ...actingAs(base, {
      id: serviceId,
      kind: 'agent',
      role: 'operator',
      name: name.slice(0, 100),
      preset: null,
    }),
    authMethod: 'hook',
    scopes: ['deploy:start'],
  };
}
