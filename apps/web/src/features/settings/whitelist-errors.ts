import { GENERIC_FAILURE_TITLE, WHITELIST_TEXTS } from '@florin/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { describeError, reportError, statusText, toAppError } from '../../lib/errors';
import { markFieldErrors } from '../../lib/forms';
import { showErrorToast } from '../../lib/toasts';

/** Spec 001 §8: the IP whitelist's failures are titled 'Failed'. */
const IP_FAILURE_TITLE = 'Failed';

/**
 * Failures a person cannot act on, the 401 that goes to the login screen and the 429 that
 * the page's alert tells until the wait is over, take the app's one path.
 */
function isForTheAppHandler(status: number, code: string): boolean {
  return code === 'UNAUTHENTICATED' || code === 'RATE_LIMITED' || status >= 500;
}

/**
 * The wallet form's failures as spec 001 §8 gives them: a 422 shows the
 * message with the field errors (also under the inputs); anything else the
 * status text with the message. A refused address is marked on its input too.
 */
export function reportWalletFormError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  const appError = toAppError(error);
  if (isForTheAppHandler(appError.status, appError.code)) {
    reportError(appError);
    return;
  }
  markFieldErrors(appError, setError, fields);
  if (appError.status === 422) {
    showErrorToast({ id: 'whitelist-wallet', title: appError.message, message: describeError(appError) });
    return;
  }
  if (appError.code === 'INVALID_ADDRESS') {
    const address = fields.find((field) => field === 'address');
    if (address) setError(address, { type: 'server', message: appError.message });
  }
  showErrorToast({ id: 'whitelist-wallet', title: statusText(appError.status), message: appError.message });
}

/** Spec 001 §8: 'Failed' with the first error, or the message when there is none. Field errors go under the inputs. */
export function reportIpError<T extends FieldValues>(
  error: unknown,
  form?: { setError: UseFormSetError<T>; fields: readonly Path<T>[] },
): void {
  const appError = toAppError(error);
  if (isForTheAppHandler(appError.status, appError.code)) {
    reportError(appError, { title: IP_FAILURE_TITLE });
    return;
  }
  if (form) markFieldErrors(appError, form.setError, form.fields);
  const firstError = Object.values(appError.errors ?? {}).flat()[0];
  showErrorToast({ id: 'whitelist-ip', title: IP_FAILURE_TITLE, message: firstError ?? appError.message });
}

/**
 * A failed removal (spec 001 §8): 'Something went wrong. Please contact the
 * admin.' A 429 goes to the page's alert instead, which says when to try again.
 */
export function reportWalletRemovalError(error: unknown): void {
  const appError = toAppError(error);
  if (appError.code === 'UNAUTHENTICATED' || appError.code === 'RATE_LIMITED') {
    reportError(appError);
    return;
  }
  showErrorToast({
    id: 'whitelist-removal',
    title: GENERIC_FAILURE_TITLE,
    message: WHITELIST_TEXTS.removalFailed,
  });
}
