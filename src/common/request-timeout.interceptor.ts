import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  ServiceUnavailableException,
} from '@nestjs/common';
import { catchError, type Observable, throwError, timeout, TimeoutError } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** No API request hangs: past REQUEST_TIMEOUT_MS it answers 503 with Retry-After. */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout({ first: this.config.requestTimeoutMs }),
      catchError((error: unknown) =>
        throwError(() =>
          error instanceof TimeoutError ? new ServiceUnavailableException('The request took too long. Try again in a moment.') : error,
        ),
      ),
    );
  }
}
