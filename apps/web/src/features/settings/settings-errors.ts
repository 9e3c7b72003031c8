import { GENERIC_FAILURE_TITLE } from '@florin/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { describeError, reportError, statusText, toAppError } from '../../lib/errors';
import { markFieldErrors } from '../../lib/forms';
import { showErrorToast } from '../../lib/toasts';

/** Spec 001 section 8: the text for any failure of the password form the catalogue does not name. */
const SOMETHING_WENT_WRONG = 'Something went wrong';

/**
 * The password (and e-mail) forms' failures, as spec 001 section 8 gives
 * them: a 422 shows the server's message with the field errors (also under
 * the inputs); a 400 the status text with the message; anything else
 * "Something went wrong". Two exceptions, as everywhere: a 401 goes to the
 * login screen, and a 429 to the page's alert, which says when to try again.
 */
export function reportSettingsFormError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  const appError = toAppError(error);
  if (appError.code === 'UNAUTHENTICATED' || appError.code === 'RATE_LIMITED') {
    reportError(appError);
  } else if (appError.status === 422) {
    markFieldErrors(appError, setError, fields);
    showErrorToast({ title: appError.message, message: describeError(appError) });
  } else if (appError.status === 400) {
    showErrorToast({ title: statusText(appError.status), message: appError.message });
  } else {
    showErrorToast({ title: GENERIC_FAILURE_TITLE, message: SOMETHING_WENT_WRONG });
  }
}
