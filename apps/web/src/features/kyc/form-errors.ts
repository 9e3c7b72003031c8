import type { FieldErrors, FieldValues } from 'react-hook-form';
import { showErrorToast } from '../../lib/toasts';

/** The messages of a form's invalid fields, in the form's order, each once. */
export function fieldMessages<T extends FieldValues>(errors: FieldErrors<T>): string[] {
  const messages = Object.values(errors)
    .map((error) => (error && typeof error.message === 'string' ? error.message : undefined))
    .filter((message): message is string => Boolean(message));
  return [...new Set(messages)];
}

/**
 * What the spec shows for a form refused before it is sent: the same title and texts the
 * server's refusal would bring (e.g. "Information Missing" with "The Address field is required.").
 */
export function showInvalidForm<T extends FieldValues>(title: string, errors: FieldErrors<T>): void {
  const messages = fieldMessages(errors);
  if (messages.length > 0) showErrorToast({ id: `invalid-${title}`, title, message: messages.join('\n') });
}
