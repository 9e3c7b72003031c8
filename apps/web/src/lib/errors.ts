import {
  AppError,
  ERROR_CODES,
  GENERIC_FAILURE_TEXT,
  GENERIC_FAILURE_TITLE,
  type ErrorCode,
} from '@florin/contracts';
import { noteRateLimit } from './rate-limit-notice';
import { showErrorToast } from './toasts';

/**
 * The toast title per code when the caller names none: the spec's catalogue
 * where it has one ("Incorrect Input", "Failed!"), else the HTTP status text.
 */
const TITLES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Incorrect Input',
  BAD_REQUEST: 'Bad Request',
  UNAUTHENTICATED: 'Unauthorized',
  INVALID_CREDENTIALS: 'Login Failed!',
  EMAIL_NOT_VERIFIED: 'Email not yet verified!',
  INVALID_PASSCODE: 'Unprocessable Content',
  CAPTCHA_FAILED: 'Captcha Failed',
  CSRF_FAILED: 'Forbidden',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not Found',
  CONFLICT: 'Conflict',
  // The spec shows only the text, "Company number already exists."; the title is the status text.
  COMPANY_NUMBER_TAKEN: 'Bad Request',
  IDEMPOTENCY_CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'Payload Too Large',
  UNSUPPORTED_FILE: 'File Not Supported',
  FILE_TOO_LARGE: 'File Too Large',
  INSUFFICIENT_FUNDS: 'Insufficient Balance',
  RATE_LIMITED: 'Too Many Requests',
  UNAVAILABLE: GENERIC_FAILURE_TITLE,
  PRICES_STALE: 'Prices Unavailable',
  // Fiat money (spec 001 section 8): 403 shows the server's message; a 422 on withdraw is titled 'Unsuccessful!'.
  ACCOUNT_NOT_LIVE: 'Forbidden',
  INVESTOR_JOURNEY_INCOMPLETE: 'Before your first investment',
  // Spec 000 section 6: money waits for the Getting Started steps; the message says which.
  VERIFICATION_INCOMPLETE: 'Verification Incomplete',
  ACCOUNT_TERMINATED: 'Account Terminated',
  ACCOUNT_CLOSED: 'Account Closed',
  WITHDRAWAL_REFUSED: 'Failed!',
  BANK_ACCOUNT_NOT_SET: 'Unsuccessful!',
  // Crypto deposits (issue 8): the spec shows only the 'contact support' text.
  DEPOSIT_UNAVAILABLE: 'Deposits Unavailable',
  INVALID_ADDRESS: 'Invalid Address',
  VERIFICATION_FAILED: 'Failed',
  IP_NOT_WHITELISTED: 'Sign-in Refused',
  ORDER_REFUSED: 'Insufficient Funds',
  INTERNAL: GENERIC_FAILURE_TITLE,
};

/** HTTP reason phrases, for the screens whose spec titles a failure with the "status text". */
const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusText(status: number): string {
  return STATUS_TEXTS[status] ?? (status >= 500 ? GENERIC_FAILURE_TITLE : 'Error');
}

export type ReportErrorOptions = {
  /** Title for a 4xx toast, from the spec's catalogue for that screen (e.g. "Login Failed!"). 5xx always read "Failed!". */
  title?: string;
};

type UnauthenticatedHandler = (error: AppError) => void;
let unauthenticatedHandler: UnauthenticatedHandler | undefined;

/**
 * What a 401 does instead of a toast. The app registers it once the session
 * exists (issue 3: forget the session and go to /login). Returns the unregister function.
 */
export function setUnauthenticatedHandler(handler: UnauthenticatedHandler): () => void {
  unauthenticatedHandler = handler;
  return () => {
    if (unauthenticatedHandler === handler) unauthenticatedHandler = undefined;
  };
}

/** Any thrown value as an AppError; anything that is not one is an internal failure. */
export function toAppError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError('INTERNAL');
}

/** A 4xx: asking again unchanged gives the same answer. */
export function isClientError(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500;
}

/** What a person reads about a failure: the field errors line by line, else the message; never a 5xx's own text. */
/** 5xx failures a person can act on (wait and try again), told in the contract's fixed words. */
const KNOWN_OUTAGES: ReadonlySet<ErrorCode> = new Set(['UNAVAILABLE', 'PRICES_STALE']);

export function describeError(error: AppError): string {
  if (error.status >= 500) {
    // Server text of a 5xx never reaches a person; ours is fixed.
    return KNOWN_OUTAGES.has(error.code) ? ERROR_CODES[error.code].message : GENERIC_FAILURE_TEXT;
  }
  const fieldMessages = Object.values(error.errors ?? {}).flat();
  return fieldMessages.length > 0 ? fieldMessages.join('\n') : error.message;
}

/**
 * The one place a failed call reaches the user: a 401 goes to the registered
 * handler, everything else becomes a red toast. The toast id is the error
 * code, so a burst of identical failures (parallel queries, a retry) shows once.
 */
export function reportError(error: unknown, options: ReportErrorOptions = {}): void {
  const appError = toAppError(error);
  if (appError.code === 'UNAUTHENTICATED' && unauthenticatedHandler) {
    unauthenticatedHandler(appError);
    return;
  }
  if (appError.code === 'RATE_LIMITED') {
    // An alert above the page's forms (RateLimitAlert) that stays until the wait is over, not a 3-second toast.
    noteRateLimit(appError, options.title ?? TITLES.RATE_LIMITED);
    return;
  }
  const title =
    appError.status >= 500
      ? KNOWN_OUTAGES.has(appError.code)
        ? TITLES[appError.code]
        : GENERIC_FAILURE_TITLE
      : (options.title ?? TITLES[appError.code]);
  showErrorToast({ id: `error-${appError.code}`, title, message: describeError(appError) });
}
