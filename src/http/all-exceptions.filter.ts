import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestIdOf } from './request-id.js';
import { sendError } from './error-response.js';

/** The one place where every surface's errors take the documented shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    sendError(http.getResponse<Response>(), exception, requestIdOf(req));
  }
}
