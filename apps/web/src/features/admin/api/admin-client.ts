import { getAdminMe, type Endpoint } from '@florin/contracts';
import { apiCall, type ApiCallArgs, type ApiCallOptions, type ApiOutput } from '../../../lib/api-client';
import { reportError, toAppError } from '../../../lib/errors';

type SessionLostHandler = () => void;
let sessionLostHandler: SessionLostHandler | undefined;

/**
 * What happens when the staff session turns out to be gone (idle 15 minutes,
 * disabled, signed out elsewhere): the admin shell registers a trip to the
 * staff login. Returns the unregister function.
 */
export function setStaffSessionLostHandler(handler: SessionLostHandler): () => void {
  sessionLostHandler = handler;
  return () => {
    if (sessionLostHandler === handler) sessionLostHandler = undefined;
  };
}

/** Whether the browser still has a staff session; /me answers 404 when it has none. */
async function hasStaffSession(): Promise<boolean> {
  try {
    await apiCall(getAdminMe, {}, { notify: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * apiCall for the back office. The back office answers 404 to anyone without
 * a staff session (never 401, which would send a customer to /login), so a
 * 404 asks whether the session is gone: if so, back to the staff login with
 * no toast; if not, the 404 is real and reported like any failure.
 */
export async function adminCall<E extends Endpoint>(
  endpoint: E,
  ...[input, options = {}]: ApiCallArgs<E>
): Promise<ApiOutput<E>> {
  const { notify, ...rest }: ApiCallOptions = options;
  try {
    const args = [input, { ...rest, notify: false }] as unknown as ApiCallArgs<E>;
    return await apiCall(endpoint, ...args);
  } catch (error) {
    if (rest.signal?.aborted) throw error;
    const appError = toAppError(error);
    if (appError.code === 'NOT_FOUND' && !(await hasStaffSession())) {
      sessionLostHandler?.();
      throw appError;
    }
    if (notify !== false) reportError(appError, { title: rest.errorTitle });
    throw appError;
  }
}
