import {
  AppError,
  ERROR_CODES,
  ErrorBodySchema,
  getCsrfToken,
  type Endpoint,
  type ErrorCode,
} from '@florin/contracts';
import type { z } from 'zod';
import { attendanceHeaders } from './attendance';
import { reportError, toAppError } from './errors';
import { readCookie } from './cookies';

/** One part of the input: required when its schema has a required field, optional when it has none, absent when undeclared. */
type InputPart<E, K extends 'body' | 'query' | 'params'> = E extends {
  readonly [P in K]: infer S extends z.ZodType;
}
  ? Partial<z.input<S>> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a call sends: the body, query and path parameters its contract declares, as the schemas accept them. */
export type ApiInput<E extends Endpoint> = InputPart<E, 'body'> &
  InputPart<E, 'query'> &
  InputPart<E, 'params'>;

type SuccessStatus = 200 | 201 | 202 | 204;

/** What a call returns: the parsed body of any 2xx its contract declares. */
export type ApiOutput<E extends Endpoint> = {
  [S in keyof E['responses']]: S extends SuccessStatus ? z.output<E['responses'][S]> : never;
}[keyof E['responses']];

export type ApiCallOptions = {
  /**
   * false: the caller shows the failure itself (a form putting field errors
   * beside its inputs, a background probe). The error is still thrown.
   */
  notify?: boolean;
  /** The toast title for a 4xx, from the spec's catalogue for this screen (e.g. "Login Failed!"). */
  errorTitle?: string;
  /** TanStack Query passes one, so leaving a screen cancels its requests. */
  signal?: AbortSignal;
  /** Extra request headers the contract asks for (a withdrawal's Idempotency-Key). */
  headers?: Readonly<Record<string, string>>;
  /** 'form': the body goes as application/x-www-form-urlencoded, for the calls the spec sends so (the instant order). */
  bodyEncoding?: BodyEncoding;
};

export type BodyEncoding = 'json' | 'form';

/** The input is optional only when the contract declares nothing required. */
export type ApiCallArgs<E extends Endpoint> =
  Partial<ApiInput<E>> extends ApiInput<E>
    ? [input?: ApiInput<E>, options?: ApiCallOptions]
    : [input: ApiInput<E>, options?: ApiCallOptions];

const NETWORK_FAILURE = 'Florin could not be reached. Check your connection and try again.';

/**
 * Calls one contract endpoint. A 2xx body is parsed with the contract's
 * schema for that status; anything else is thrown as an AppError, after
 * reportError has shown it (unless `notify: false`).
 *
 *   const health = await apiCall(getHealth);
 *   await apiCall(createThing, { body: { name } }, { errorTitle: 'Failed to add thing' });
 */
export async function apiCall<E extends Endpoint>(
  endpoint: E,
  ...[input, options = {}]: ApiCallArgs<E>
): Promise<ApiOutput<E>> {
  try {
    return (await send(
      endpoint,
      input ?? {},
      options.signal,
      options.headers,
      options.bodyEncoding,
    )) as ApiOutput<E>;
  } catch (error) {
    // Cancelled on purpose (a screen left, a query superseded): nothing to tell anyone.
    if (options.signal?.aborted) throw error;
    // Anything but an AppError here is a bug in the caller or this file; keep it visible.
    if (!(error instanceof AppError)) console.error(error);
    const appError = toAppError(error);
    // A lost session is everyone's business, even a caller's that shows its own failures: a page refreshing
    // itself after the session went idle (attendance.ts) must leave the signed-in screens, not sit on them.
    if (options.notify !== false || appError.code === 'UNAUTHENTICATED')
      reportError(appError, { title: options.errorTitle });
    throw appError;
  }
}

type RawInput = { body?: unknown; query?: Record<string, unknown>; params?: Record<string, unknown> };

/** A path or query value as text; undefined leaves it out. Objects have no agreed form in a URL. */
function toUrlText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return value.toString();
  if (value instanceof Date) return value.toISOString();
  throw new Error(`${where}: cannot put an object in a URL`);
}

/**
 * The URL of a call: path parameters filled in and encoded, the query appended. Also for the
 * calls apiCall cannot make itself (uploads with progress, file downloads, plain download links).
 */
export function endpointUrl(endpoint: Endpoint, input: Omit<RawInput, 'body'> = {}): string {
  const where = `${endpoint.method} ${endpoint.path}`;
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const text = toUrlText(input.params?.[name], where);
    if (text === undefined) throw new Error(`${where}: missing path parameter "${name}"`);
    return encodeURIComponent(text);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      const text = toUrlText(item, where);
      if (text !== undefined) search.append(key, text);
    }
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The cookie the server sets on any API answer; state-changing requests echo it in CSRF_HEADER (double submit). */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One GET /csrf shared by every unsafe request that finds no cookie at the same moment. */
let csrfRequest: Promise<unknown> | undefined;

/**
 * The CSRF token to send. A browser that has never talked to the API has no
 * cookie yet: any API answer sets it, GET /csrf being the cheapest. It is read
 * again before every request because signing in and out replace it. Not
 * cancellable: other requests may be waiting on the same answer.
 */
async function csrfToken(): Promise<string | undefined> {
  const token = readCookie(CSRF_COOKIE);
  if (token) return token;
  csrfRequest ??= send(getCsrfToken, {}).finally(() => {
    csrfRequest = undefined;
  });
  await csrfRequest;
  return readCookie(CSRF_COOKIE);
}

/** A flat object as form fields; undefined and null fields are left out, nested objects have no agreed form. */
function toFormBody(body: unknown): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    const text = toUrlText(value, 'form body');
    if (text !== undefined) form.append(key, text);
  }
  return form;
}

async function buildHeaders(method: string, hasBody: boolean, encoding: BodyEncoding): Promise<Headers> {
  const headers = new Headers({ accept: 'application/json', ...attendanceHeaders() });
  if (hasBody)
    headers.set(
      'content-type',
      encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    );
  if (UNSAFE_METHODS.has(method)) {
    const token = await csrfToken();
    if (token) headers.set(CSRF_HEADER, token);
  }
  return headers;
}

async function send(
  endpoint: Endpoint,
  input: RawInput,
  signal?: AbortSignal,
  extraHeaders: Readonly<Record<string, string>> = {},
  encoding: BodyEncoding = 'json',
): Promise<unknown> {
  const url = endpointUrl(endpoint, input);
  const hasBody = input.body !== undefined;
  const headers = await buildHeaders(endpoint.method, hasBody, encoding);
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      body: !hasBody ? undefined : encoding === 'form' ? toFormBody(input.body) : JSON.stringify(input.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new AppError('UNAVAILABLE', NETWORK_FAILURE);
  }
  if (!response.ok) throw await readError(response);

  const schema = endpoint.responses[response.status];
  const payload: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  // Cancelled while the body was read (a newer refetch superseded it): nothing broke its contract.
  if (signal?.aborted) throw signal.reason ?? new DOMException('The request was cancelled', 'AbortError');
  // A 204 has no body; its contract may say so as undefined or as null.
  const parsed =
    response.status === 204 && schema?.safeParse(payload).success === false
      ? schema.safeParse(null)
      : schema?.safeParse(payload);
  if (!parsed?.success) {
    // The server broke its own contract: a bug to fix, so it goes to the console for whoever reproduces it.
    console.error(`${endpoint.method} ${endpoint.path} answered ${response.status} outside its contract`, {
      issues: parsed?.error.issues,
    });
    throw new AppError('INTERNAL');
  }
  return parsed.data;
}

/** The server's ErrorBody when there is one (there always should be); else the code its status implies. */
async function readError(response: Response): Promise<AppError> {
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    const body = ErrorBodySchema.safeParse(await response.json().catch(() => undefined));
    if (body.success) {
      // A limit's Retry-After rides in the error's data, so the page can say when to try again.
      const retryAfter = response.headers.get('retry-after');
      const data = retryAfter ? { retry_after: Number(retryAfter), ...body.data.data } : body.data.data;
      return new AppError(body.data.code, body.data.message, body.data.errors, data);
    }
  }
  return new AppError(codeForStatus(response.status));
}

function codeForStatus(status: number): ErrorCode {
  const match = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code].status === status);
  return match ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}
