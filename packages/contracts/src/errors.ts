import { z } from 'zod';

/**
 * Every error the API returns carries one of these codes. The server maps a
 * code to its HTTP status here, once; the web maps it to what the user sees.
 * `message` is the text a person reads: the spec's catalogue where it has one.
 */
export const ERROR_CODES = {
  /** Input failed its zod contract; `errors` maps each field to its messages. */
  VALIDATION_FAILED: { status: 422, message: 'The given data was invalid.' },
  /** The request body is not JSON, or not the content type the route takes. */
  BAD_REQUEST: { status: 400, message: 'The request could not be read.' },
  /** No session, or the session expired or was revoked. */
  UNAUTHENTICATED: { status: 401, message: 'Please sign in to continue.' },
  /** Wrong e-mail or password at sign-in; never says which. */
  INVALID_CREDENTIALS: { status: 401, message: 'The email or password is incorrect.' },
  /** Right password, but the e-mail address is not confirmed yet; `data` carries verified: false and user_id. */
  EMAIL_NOT_VERIFIED: {
    status: 403,
    message: 'Please verify your email address before signing in. We can send the link again.',
  },
  /** A 2FA or recovery code that is wrong, expired or already used. */
  INVALID_PASSCODE: { status: 422, message: 'Wrong Passcode.' },
  /** The captcha payload is missing, wrong, expired or used before. */
  CAPTCHA_FAILED: { status: 422, message: 'The captcha could not be verified. Please try again.' },
  /** A state-changing browser request without the CSRF header that matches its cookie. */
  CSRF_FAILED: {
    status: 403,
    message: 'Your session could not be verified. Please reload the page and try again.',
  },
  /** Signed in, but this role may not call the route. */
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  /** Unknown route, or an object that does not exist or belongs to someone else. */
  NOT_FOUND: { status: 404, message: 'Not found.' },
  /** The object's state does not allow the action (already resolved, already exists). */
  CONFLICT: { status: 409, message: 'This action conflicts with the current state.' },
  /** A company number another customer already registered (spec 000 section 8: a 400). */
  COMPANY_NUMBER_TAKEN: { status: 400, message: 'Company number already exists.' },
  /** An idempotency key was reused with different parameters. */
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This request was already made with different details.',
  },
  /** The request body is larger than the route accepts. */
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request is too large.' },
  /**
   * An upload that is not a JPEG, PNG or PDF by name and content, or that carries markup,
   * trailing data, scripts or encryption (the spec has one text for all of them).
   */
  UNSUPPORTED_FILE: {
    status: 422,
    message: 'File format not supported. Accepts only JPEG, JPG, PNG and PDF.',
  },
  /** An upload larger than 10 MB. */
  FILE_TOO_LARGE: { status: 413, message: 'The file is larger than 10 MB. Please upload a smaller file.' },
  /** A balance would go below zero. */
  INSUFFICIENT_FUNDS: { status: 422, message: 'Insufficient balance.' },
  /** A rate limit was hit. */
  RATE_LIMITED: { status: 429, message: 'Too many attempts. Please wait a minute and try again.' },
  /** The database or a dependency is unavailable, or the ledger check failed. */
  UNAVAILABLE: { status: 503, message: 'Florin is temporarily unavailable. Please try again shortly.' },
  /** The price source stopped ticking: nothing may be quoted or traded until it recovers. */
  PRICES_STALE: {
    status: 503,
    message: 'Live prices are unavailable at the moment. Please try again shortly.',
  },
  /** A customer who is not live (status not 1) or is on hold tries to move money (spec 001 §5). */
  ACCOUNT_NOT_LIVE: { status: 403, message: 'Your account is not live!' },
  /**
   * A live customer whose verification is no longer complete moves money (spec 000 §6): a step is
   * missing (a new address supersedes the proof of address) or a document was declined.
   */
  VERIFICATION_INCOMPLETE: {
    status: 403,
    message:
      'Your verification is incomplete. Please finish the steps under Getting Started before you deposit, withdraw or trade.',
  },
  /** The account was terminated: it may only withdraw its assets, until its access ends (issue 13). */
  ACCOUNT_TERMINATED: {
    status: 403,
    message: 'Your account has been terminated. You can still withdraw your assets until your access ends.',
  },
  /** Sign-in to an account that was closed, or whose access after termination has ended. */
  ACCOUNT_CLOSED: {
    status: 403,
    message: 'This account is closed. Please contact support if you need help.',
  },
  /**
   * A first buy, term deposit or auto buy before the customer has completed the first-investment
   * journey (issue 13: categorisation, assessment, 24-hour cooling-off, confirmation).
   */
  INVESTOR_JOURNEY_INCOMPLETE: {
    status: 403,
    message: 'Before your first investment, please complete the steps under Before you invest.',
  },
  /**
   * A fiat withdrawal the rules refuse (amount under the minimum, above the balance, 2FA code
   * missing or wrong): `data` maps the field to the spec's text (001 §8: a 400 lists data's values).
   */
  WITHDRAWAL_REFUSED: { status: 400, message: 'The withdrawal could not be made.' },
  /** No verified bank account to withdraw to, or its 24-hour wait after a change is not over (001 §8). */
  BANK_ACCOUNT_NOT_SET: { status: 422, message: 'Valid bank account to withdraw has not been set' },
  /**
   * No deposit address can be assigned for the coin: deposits are switched off for it, or no
   * address source is configured (spec 001 §2's text; issue 8).
   */
  DEPOSIT_UNAVAILABLE: {
    status: 409,
    message: 'Please contact support to have a unique wallet assigned to your account',
  },
  /**
   * A crypto destination address that fails the coin's checksum or format (spec 001 §8: the
   * screen titles it 'Invalid Address' and names the address); `data.address` is what was sent.
   */
  INVALID_ADDRESS: {
    status: 400,
    message: 'The address you provided is incorrect. Please try again or contact support.',
  },
  /** An e-mailed verification code that is wrong, used, expired or for something else (001 §8: 400, inline). */
  VERIFICATION_FAILED: { status: 400, message: 'This verification code is not valid.' },
  /** Sign-in from an IP address the customer has not whitelisted (issue 8); the customer is e-mailed. */
  IP_NOT_WHITELISTED: {
    status: 403,
    message:
      'Sign-in from this IP address is not allowed on your account because you use IP whitelisting. We have e-mailed you about this attempt.',
  },
  /**
   * An order the rules refuse at execution: the balance does not cover it, or the price moved
   * beyond the slippage allowed (spec 002 §8: the screen titles a 400 'Insufficient Funds').
   */
  ORDER_REFUSED: { status: 400, message: 'The order could not be executed.' },
  /** Anything unexpected. Details go to the log, never to the client. */
  INTERNAL: { status: 500, message: 'Something went wrong. Please contact the admin.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The abuse limits' refusal (server security/rate-limits.ts): `tooManyAttempts`, then
 * `tryAgainFrom` and the moment the window frees a place, as waitUntilText writes it. The
 * web adds the same words to a 429 that does not name the moment itself.
 */
export const RATE_LIMIT_TEXTS = {
  tooManyAttempts: 'Too many attempts.',
  tryAgainFrom: 'You can try again from',
} as const;

/** The spec's title for a 500 anywhere ("Failed!"). */
export const GENERIC_FAILURE_TITLE = 'Failed!';
export const GENERIC_FAILURE_TEXT = ERROR_CODES.INTERNAL.message;

export const FieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

export const ErrorBodySchema = z.object({
  code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  errors: FieldErrorsSchema.optional(),
  /** Facts the client acts on (e.g. verified: false, user_id for the resend button). */
  data: z.record(z.string(), z.unknown()).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The one error type, thrown by the server and rebuilt by the web client. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly data?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, errors?: FieldErrors, data?: Record<string, unknown>) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = errors;
    this.data = data;
  }

  toBody(requestId?: string): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.data ? { data: this.data } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
