import type { Server } from 'node:http';
import type { INestApplication, LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { LOG_LEVELS, type AppConfig } from '../config/app-config.js';
import { expressTrustProxy } from '../config/trust-proxy.js';
import { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { unroutedTargetMarker } from '../http/unrouted-target.js';
import { ProcedureRegistry } from '../rpc/procedure-registry.js';
import { AllExceptionsFilter } from '../http/all-exceptions.filter.js';
import { bodyErrorHandler, jsonBodyParser } from '../http/body-parsing.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { arrivalReader } from '../http/arrival.js';
import { crossSiteGuard } from '../http/cross-site.js';
import { hostCheck } from '../http/host-check.js';
import { requestIdMiddleware } from '../http/request-id.js';
import { securityHeaders } from '../http/security-headers.js';
import { hardenServer } from '../http/server-limits.js';
import { dashboard } from '../web/dashboard.js';
import { AppModule, type AppModuleOptions } from './app.module.js';

export interface CreateAppOptions extends AppModuleOptions {
  /** Nest log output; false silences it (tests). */
  logger?: false;
}

/** Builds the HTTP application with its middleware; the caller decides when to listen. */
export async function createApp(options: CreateAppOptions): Promise<INestApplication> {
  const levels = LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(options.config.logLevel) + 1);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), {
    bodyParser: false,
    logger: options.logger === false ? false : (levels as NestLogLevel[]),
  });
  configureApp(app, options.config);
  return app;
}

/** Middleware, error shape and server limits; shared by `createApp` and test harnesses. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.set('trust proxy', expressTrustProxy(config.trustProxy));
  app.disable('x-powered-by');
  // API answers are never cached (Cache-Control: no-store), so hashing them for an ETag is waste.
  app.set('etag', false);
  app.use(securityHeaders(config.publicUrl));
  app.use(requestIdMiddleware);
  const refusals = app.get(RefusalRecorder);
  const markTarget = unroutedTargetMarker(app.get(ProcedureRegistry));
  const allowedHosts = new AllowedHosts([config.publicUrl, ...config.publicUrlAliases]);
  const arrivalOf = arrivalReader(app.getHttpServer() as Server);
  // Before anything answers, the dashboard included: a request for another name is refused.
  app.use(hostCheck(allowedHosts, arrivalOf, refusals, markTarget));
  // The web app's files and pages (GET only); every API path falls through to its own answer.
  app.use(dashboard());
  // Before the body is parsed: a cross-site request is refused without reading it.
  app.use(crossSiteGuard(allowedHosts, arrivalOf, refusals, markTarget));
  app.use(jsonBodyParser);
  app.use(bodyErrorHandler(refusals, markTarget));
  app.useGlobalFilters(new AllExceptionsFilter(refusals));
  hardenServer(app.getHttpServer() as Server, config.http);
}
