import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { answerError } from './answer-error.js';

/** The one place where every surface's errors take the documented shape (and are audited). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly refusals: RefusalRecorder | null = null) {}

  catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    return answerError(
      this.refusals,
      http.getRequest<Request>(),
      http.getResponse<Response>(),
      exception,
    );
  }
}
