import {
  inputDefinitions,
  inputSchemaOf,
  referencedDefinitions,
  type JsonSchema,
} from '../../kernel/input-schema.js';
import type { DiscoveredRoute } from './discovered-routes.js';

type Json = Record<string, unknown>;

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'BAD_REQUEST: malformed or invalid input; `data.issues` lists the field problems',
  '401': 'AUTH_REQUIRED, TOKEN_* or SESSION_EXPIRED: no or refused credentials',
  '403': 'FORBIDDEN (`data.requiredScopes`, `data.grantedScopes`) or MFA_REQUIRED',
  '404': 'NOT_FOUND: unknown route or resource',
  '429': 'RATE_LIMITED, with Retry-After',
};

const SSE_DESCRIPTION =
  'text/event-stream. Each event has `id:` (a line number), `event:` and `data:` (JSON); ' +
  '`: ping` comments keep the connection alive; `event: end` closes the stream. A stream ends ' +
  'with its credential: once it is revoked, expired or invalidated, its principal deactivated ' +
  'or its session ended, `event: end` carries `{reason, code}` (code: what a new request ' +
  'would be refused with) within seconds.';

/** `/a/:id/b` → `/a/{id}/b`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** JSON Schema refs of the kernel (`#/definitions/X`) as OpenAPI component refs. */
function componentRefs<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value).replaceAll('"#/definitions/', '"#/components/schemas/'),
  ) as T;
}

function parameters(inputClass: (new () => object) | undefined, where: 'path' | 'query') {
  if (!inputClass) return [];
  const schema = inputSchemaOf(inputClass);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: componentRefs(property),
  }));
}

/** The path's `{name}`s its parameters class does not declare: plain strings. */
function undeclaredPathParameters(route: DiscoveredRoute, declared: { name: string }[]) {
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  return names
    .filter((name) => !declared.some((p) => p.name === name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

function operation(route: DiscoveredRoute, used: Set<string>): Json {
  const d = route.declaration;
  const guarded = d.auth === 'guarded';
  const path = parameters(d.params, 'path');
  const op: Json = {
    operationId: route.handler,
    summary: d.summary ?? (guarded ? d.name : route.handler),
    tags: [route.path.split('/')[3] ?? 'api'],
    parameters: [
      ...path,
      ...undeclaredPathParameters(route, path),
      ...parameters(d.query, 'query'),
      ...(d.headers ?? []).map((h) => ({
        name: h.name,
        in: 'header',
        required: false,
        description: h.description,
        schema: { type: 'string' },
      })),
    ],
    security: guarded ? [{ bearer: [] }, { session: [] }] : [],
    responses: {
      [String(route.status)]: route.eventStream
        ? {
            description: SSE_DESCRIPTION,
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          }
        : { description: 'Success', content: { 'application/json': { schema: {} } } },
      ...Object.fromEntries(
        Object.keys(ERROR_RESPONSES)
          .filter((status) => guarded || (status !== '401' && status !== '403'))
          .map((status) => [status, { $ref: `#/components/responses/E${status}` }]),
      ),
      default: { $ref: '#/components/responses/Error' },
    },
    'x-slipway-auth': d.auth,
  };
  if (guarded) {
    op['x-slipway-route'] = d.name;
    op['x-slipway-roles'] = [...d.roles];
    op['x-slipway-scopes'] = [...d.scopes];
    op['x-slipway-mfa-exempt'] = d.mfaExempt ?? false;
  }
  if (d.body) {
    const schema = inputSchemaOf(d.body);
    referencedDefinitions(schema, used);
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: componentRefs(schema) } },
    };
  } else if (d.rawBody) {
    op.requestBody = {
      required: true,
      description: d.rawBody.description,
      content: Object.fromEntries(d.rawBody.types.map((type) => [type, { schema: {} }])),
    };
  }
  for (const c of [d.params, d.query]) if (c) referencedDefinitions(inputSchemaOf(c), used);
  return op;
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'code', 'data'],
      properties: {
        message: { type: 'string' },
        code: { type: 'string', examples: ['FORBIDDEN'] },
        data: {
          type: 'object',
          properties: {
            requestId: { type: 'string' },
            issues: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
            requiredScopes: { type: 'array', items: { type: 'string' } },
            grantedScopes: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
};

/**
 * The OpenAPI 3.1 document of the routes given: paths from Nest's metadata, parameters and bodies
 * from the classes the routes validate with (class-validator → JSON Schema), security and the
 * declared roles and scopes (`x-slipway-*`) from `@RouteAccess`. Response bodies other than
 * errors and event streams are not described (the routes have no response classes).
 */
export function openApiDocument(routes: DiscoveredRoute[], version: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const used = new Set<string>();
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route, used);
  }
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Slipway REST API',
      version,
      description:
        'REST surfaces under /api/v1. Every route is guarded like a procedure: effective access is the role ∩ the token scopes, listed per operation as x-slipway-roles and x-slipway-scopes.',
    },
    servers: [{ url: '/', description: 'This Slipway, at the address it is reached by' }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, ...componentRefs(inputDefinitions(used)) },
      responses: {
        ...Object.fromEntries(
          Object.entries(ERROR_RESPONSES).map(([status, d]) => [`E${status}`, error(d)]),
        ),
        Error: error('Any other error, in the same shape (409, 413, 503, ...)'),
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token: slw_...' },
        session: { type: 'apiKey', in: 'cookie', name: 'slipway_session' },
      },
    },
  };
}
