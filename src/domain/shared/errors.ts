/**
 * The one error type the domain throws for expected failures. Adapters map it:
 * MCP -> tool result with isError and structuredContent {error, code, ...details};
 * REST -> HTTP status with body {error, code, ...details}.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'unknown_category'
  | 'not_found'
  | 'store_unavailable'
  | 'missing_credentials'
  | 'unknown_key'
  | 'insufficient_credits'
  | 'conflicting_credentials'
  | 'already_registered'
  | 'rate_limited'
  | 'payload_too_large'
  | 'conflict'
  | 'bad_signature'
  | 'not_applicable'
  | 'forbidden'
  | 'limit_exceeded'
  | 'overloaded'
  | 'unsupported_media_type'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unknown_category: 400,
  not_found: 404,
  store_unavailable: 503,
  missing_credentials: 401,
  unknown_key: 403,
  insufficient_credits: 402,
  conflicting_credentials: 400,
  already_registered: 409,
  rate_limited: 429,
  payload_too_large: 413,
  conflict: 409,
  bad_signature: 401,
  not_applicable: 422,
  forbidden: 403,
  /** A job went over a per-job limit (time, memory, output size): `limit` names it. */
  limit_exceeded: 422,
  /** The worker pool's queue is full: `retry_after` (seconds) says when to try again. */
  overloaded: 503,
  /** A JSON route was sent another Content-Type (a cross-site text/plain POST needs no preflight). */
  unsupported_media_type: 415,
  internal: 500,
};

/** The HTTP status an error code is answered with. */
export function errorStatus(code: ErrorCode): number {
  return STATUS[code];
}

/** Every error code, in declaration order. */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.status = STATUS[code];
    this.details = details;
  }

  /** The public body: {error, code, ...details}. Never carries a stack or internals. */
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.details };
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;

export function invalidInput(field: string, message: string): DomainError {
  return new DomainError('invalid_input', `${field}: ${message}`, { field });
}
