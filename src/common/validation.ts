import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ApiErrorBody } from '../../lib/api/errors.js';

function collect(errors: ValidationError[], prefix: string, into: Record<string, string[]>): void {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      into[path] = Object.entries(error.constraints).map(([name, message]) =>
        name === 'whitelistValidation' ? `${path} is not allowed` : message,
      );
    }
    if (error.children?.length) collect(error.children, path, into);
  }
}

export function validationErrorBody(errors: ValidationError[]): ApiErrorBody {
  const fields: Record<string, string[]> = {};
  collect(errors, '', fields);
  return { statusCode: 400, error: 'Bad Request', message: 'Validation failed', fields };
}

/** Unknown fields are refused (mass assignment), values are converted to the DTO's types. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(validationErrorBody(errors)),
  });
}

/** A 400 in the validation shape for a rule a DTO decorator cannot express (e.g. across fields). */
export function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: 'Validation failed',
    fields: { [field]: [message] },
  } satisfies ApiErrorBody);
}
