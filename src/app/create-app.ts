import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { INestApplication, LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { LOG_LEVELS, type AppConfig } from '../config/app-config.js';
import { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { unroutedTargetMarker } from '../audit/refusals/unrouted-target.js';
import { ProcedureRegistry } from '../rpc/procedure-registry.js';
import { AllExceptionsFilter } from '../http/all-exceptions.filter.js';
import { bodyErrorHandler, jsonBodyParser } from '../http/body-parsing.js';
import { errorBody } from '../http/error-response.js';
import { requestIdMiddleware } from '../http/request-id.js';
import { AppError } from '../common/app-error.js';
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
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // API answers are never cached (Cache-Control: no-store), so hashing them for an ETag is waste.
  app.set('etag', false);
  app.use(requestIdMiddleware);
  app.use(jsonBodyParser);
  const refusals = app.get(RefusalRecorder);
  app.use(bodyErrorHandler(refusals, unroutedTargetMarker(app.get(ProcedureRegistry))));
  app.useGlobalFilters(new AllExceptionsFilter(refusals));
  hardenServer(app.getHttpServer() as Server);
}

/**
 * Limits Node enforces before Express sees a request (oversized headers, slow clients)
 * answer in the documented error shape too, instead of a bare status line.
 */
function hardenServer(server: Server): void {
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const appError = tooLarge
      ? new AppError('PAYLOAD_TOO_LARGE', 'The request line or headers exceed 16 KiB')
      : new AppError('BAD_REQUEST', 'Malformed HTTP request', { issues: [] });
    const body = JSON.stringify(errorBody(appError, 'none'));
    socket.end(
      `HTTP/1.1 ${appError.status} ${tooLarge ? 'Payload Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
