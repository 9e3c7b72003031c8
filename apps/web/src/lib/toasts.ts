import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/** Toasts and flash alerts last 3 seconds (spec 002, UI constants). */
export const TOAST_DURATION_MS = 3_000;
/** At most this many at once; more wait their turn, so a burst never buries the page. */
export const TOAST_LIMIT = 3;

type Toast = {
  title: string;
  message: ReactNode;
  /** The same id shows once: a burst of identical toasts (parallel failures, a retry) replaces itself. */
  id?: string;
};

/** A red toast. Failures of API calls go through reportError, which calls this. */
export function showErrorToast({ title, message, id }: Toast): void {
  notifications.show({
    id,
    color: 'red',
    title,
    message,
    autoClose: TOAST_DURATION_MS,
    styles: { description: { whiteSpace: 'pre-line' } },
  });
}

/** A green toast: what the server says was done. */
export function showSuccessToast({ title, message, id }: Toast): void {
  notifications.show({ id, color: 'teal', title, message, autoClose: TOAST_DURATION_MS });
}
