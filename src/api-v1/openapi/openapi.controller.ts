import { Controller, Get } from '@nestjs/common';
import { serviceVersion } from '../../common/version.js';
import { RouteAccess } from '../../kernel/route-access.js';
import { DiscoveredRoutes } from './discovered-routes.js';
import { openApiDocument } from './openapi-document.js';

export const API_V1_PREFIX = '/api/v1';

@Controller('api/v1')
export class OpenApiController {
  private document: Record<string, unknown> | null = null;

  constructor(private readonly routes: DiscoveredRoutes) {}

  /** The OpenAPI 3.1 document of /api/v1, built once from the routes the application has. */
  @Get('openapi.json')
  @RouteAccess({
    auth: 'public',
    summary: 'The OpenAPI 3.1 document of /api/v1 (the routes, their inputs, roles and scopes).',
  })
  openApi() {
    this.document ??= buildApiV1Document(this.routes);
    return this.document;
  }
}

export function buildApiV1Document(routes: DiscoveredRoutes): Record<string, unknown> {
  return openApiDocument(routes.list(API_V1_PREFIX), serviceVersion());
}
