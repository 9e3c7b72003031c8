import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError, type FieldErrors } from '@florin/contracts';

/** A body of a type the route does not read (JSON everywhere; multipart on uploads; a form on one route). */
export const UNACCEPTED_CONTENT_TYPE = new AppError('BAD_REQUEST', 'This content type is not accepted here.');

/** Fastify's own client errors, by code, in the words a person reads. */
const FASTIFY_CLIENT_ERRORS: Record<string, AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE'),
  FST_ERR_CTP_INVALID_JSON_BODY: new AppError('BAD_REQUEST', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: new AppError('BAD_REQUEST', 'The request body is empty.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNACCEPTED_CONTENT_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: new AppError('BAD_REQUEST', 'The request body length is wrong.'),
};

type ValidationIssue = {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
};

/**
 * An empty errors map and its `add`. No prototype: a field named "constructor", "toString" or
 * "__proto__" is a key like any other (on `{}` it would find Object.prototype's and fail with a 500).
 */
export function fieldErrorsCollector(): {
  errors: FieldErrors;
  add: (field: string, message: string) => void;
} {
  const errors = Object.create(null) as FieldErrors;
  return { errors, add: (field, message) => (errors[field] ??= []).push(message) };
}

/** One failed check as the field map keys it: its dotted path, and the unknown keys when it is about those. */
type FieldIssue = { path: string; unknownKeys?: unknown; message?: string };

/** Failed checks as the spec's errors map: field path → messages; a field the contract does not know is named itself. */
function toFieldErrors(issues: readonly FieldIssue[], root: string): FieldErrors {
  const { errors, add } = fieldErrorsCollector();
  for (const { path, unknownKeys, message } of issues) {
    if (Array.isArray(unknownKeys)) {
      for (const key of unknownKeys)
        add(path ? `${path}.${String(key)}` : String(key), 'This field is not allowed.');
    } else {
      add(path || root, message ?? 'Invalid value.');
    }
  }
  return errors;
}

/** zod issues as the errors map; an issue about the whole `root` (body, querystring, params) is keyed by it. */
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[], root: string): FieldErrors {
  return toFieldErrors(
    issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      unknownKeys: issue.code === 'unrecognized_keys' ? issue.keys : undefined,
      message: issue.message,
    })),
    root,
  );
}

/** fastify-type-provider-zod's validation errors (routes outside registerRoute) as the errors map. */
function fieldErrors(error: { validation: ValidationIssue[]; validationContext?: string }): FieldErrors {
  return toFieldErrors(
    error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      unknownKeys: issue.keyword === 'unrecognized_keys' ? issue.params.keys : undefined,
      message: issue.message,
    })),
    error.validationContext ?? 'body',
  );
}

/**
 * One error handler: every failure leaves as an ErrorBody with a code. 4xx
 * say what to fix; 5xx say only the spec's generic text, and the details go to
 * the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let appError: AppError;
    if (error instanceof AppError) {
      appError = error;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      appError = new AppError('VALIDATION_FAILED', undefined, fieldErrors(error));
    } else if (error.code && FASTIFY_CLIENT_ERRORS[error.code]) {
      appError = FASTIFY_CLIENT_ERRORS[error.code] as AppError;
    } else if (error.statusCode === 429) {
      appError = new AppError('RATE_LIMITED');
    } else if (
      error.statusCode &&
      error.statusCode >= 400 &&
      error.statusCode < 500 &&
      !isResponseSerializationError(error)
    ) {
      appError = new AppError('BAD_REQUEST');
    } else {
      request.log.error({ err: error }, 'request failed');
      appError = new AppError('INTERNAL');
    }
    if (appError.status >= 500 && error instanceof AppError)
      request.log.error({ err: error }, 'request failed');
    const retryAfter = appError.data?.retry_after;
    // @fastify/rate-limit sets its own; the abuse limits (security/rate-limits.ts) say theirs here.
    if (appError.code === 'RATE_LIMITED' && typeof retryAfter === 'number' && !reply.hasHeader('retry-after'))
      void reply.header('retry-after', String(retryAfter));
    return reply.status(appError.status).send(appError.toBody(request.id));
  });
}
