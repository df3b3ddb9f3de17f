// One error vocabulary for REST and GraphQL: a domain error carries a code; this table maps code → HTTP status.
import { GraphQLError } from 'graphql';

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  WEBHOOK_ERROR: 400,
  AUTH_REQUIRED: 401,
  INVALID_API_KEY: 401,
  AUTH_FAILED: 401,
  INSUFFICIENT_SCOPE: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  PLAN_LIMIT: 403,
  ORG_SUSPENDED: 403,
  PROVIDER_DISABLED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

/**
 * A domain error. Extends GraphQLError so Yoga shows it unmasked; REST reads the same extensions and answers the
 * table's status. On /graphql an error of a field that ran is answered 200 (GraphQL over HTTP: the response
 * carries data), so no HTTP status travels in the extensions.
 */
export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    const status = ERROR_STATUS[code];
    super(message, {
      extensions: { code, ...(details === undefined ? {} : { details }) },
    });
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export const validationError = (errors: FieldError[], message = 'Invalid input') =>
  new AppError('VALIDATION_ERROR', errors.length === 1 ? `${errors[0].field}: ${errors[0].message}` : message, errors);

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
  meta: { request_id: string };
}

/** The REST error envelope (the README's Errors, with meta.request_id). */
export function errorBody(code: ErrorCode, message: string, requestId: string, details?: unknown): ErrorBody {
  return {
    error: { code, message, ...(details === undefined ? {} : { details }) },
    meta: { request_id: requestId },
  };
}

/** Reads an AppError-shaped GraphQL error (possibly re-wrapped by graphql-js) back into code/message/details. */
export function toAppErrorShape(error: { message: string; extensions?: Record<string, unknown> }): {
  code: ErrorCode;
  status: number;
  message: string;
  details?: unknown;
} {
  const code = error.extensions?.code as string | undefined;
  if (code && code in ERROR_STATUS) {
    const known = code as ErrorCode;
    return { code: known, status: ERROR_STATUS[known], message: error.message, details: error.extensions?.details };
  }
  return { code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error' };
}
