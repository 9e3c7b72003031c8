import { AppError, ErrorBodySchema, getCsrfToken, type Endpoint } from '@florin/contracts';
import type { z } from 'zod';
import { apiCall, CSRF_COOKIE, CSRF_HEADER, endpointUrl } from './api-client';
import { reportError } from './errors';
import { readCookie } from './cookies';

/** 0–100 while the file goes up; the dropzone shows it. */
export type UploadProgressHandler = (percent: number) => void;

export type MultipartCallOptions = {
  params?: Record<string, string | number>;
  onProgress?: UploadProgressHandler;
  /**
   * false: the screen shows the failure itself (the compliance-mailbox dialog, "File upload
   * fail."); a 401 still goes to the one handler. The error is thrown either way.
   */
  notify?: boolean;
};

type SuccessBody<E extends Endpoint> = z.output<E['responses'][200]>;

/** A signed-in page has the cookie already; a fresh tab may not, and any API answer sets it. */
async function csrfToken(): Promise<string | undefined> {
  const token = readCookie(CSRF_COOKIE);
  if (token) return token;
  await apiCall(getCsrfToken, {}, { notify: false });
  return readCookie(CSRF_COOKIE);
}

function errorOf(request: XMLHttpRequest): AppError {
  if (request.status === 0) {
    return new AppError('UNAVAILABLE', 'Florin could not be reached. Check your connection and try again.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(request.responseText);
  } catch {
    payload = undefined;
  }
  const body = ErrorBodySchema.safeParse(payload);
  if (body.success) return new AppError(body.data.code, body.data.message, body.data.errors, body.data.data);
  if (request.status === 413) return new AppError('FILE_TOO_LARGE');
  return new AppError(request.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

/**
 * Sends a multipart form to a contract endpoint and parses the 200 body with its schema.
 * XMLHttpRequest rather than fetch: fetch reports no upload progress, and a document of
 * 10 MB on a phone takes long enough that the customer must see it move.
 */
export async function sendMultipart<E extends Endpoint>(
  endpoint: E,
  form: FormData,
  { params, onProgress, notify = true }: MultipartCallOptions = {},
): Promise<SuccessBody<E>> {
  const token = await csrfToken();
  try {
    return await new Promise<SuccessBody<E>>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open(endpoint.method, endpointUrl(endpoint, { params }));
      request.withCredentials = true;
      request.setRequestHeader('accept', 'application/json');
      if (token) request.setRequestHeader(CSRF_HEADER, token);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(Math.round((event.loaded / event.total) * 100));
      };
      request.onerror = () => reject(errorOf(request));
      request.onload = () => {
        if (request.status < 200 || request.status >= 300) {
          reject(errorOf(request));
          return;
        }
        const schema = endpoint.responses[request.status];
        let payload: unknown;
        try {
          payload = JSON.parse(request.responseText);
        } catch {
          payload = undefined;
        }
        const parsed = schema?.safeParse(payload);
        if (!parsed?.success) {
          console.error(
            `${endpoint.method} ${endpoint.path} answered ${request.status} outside its contract`,
            {
              issues: parsed?.error.issues,
            },
          );
          reject(new AppError('INTERNAL'));
          return;
        }
        onProgress?.(100);
        resolve(parsed.data as SuccessBody<E>);
      };
      request.send(form);
    });
  } catch (error) {
    const appError = error instanceof AppError ? error : new AppError('INTERNAL');
    if (notify || appError.code === 'UNAUTHENTICATED') reportError(appError);
    throw appError;
  }
}
