import { parseCustomerInputAsync, type AppError } from '@florin/contracts';
import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { showErrorToast } from './toasts';

type ContractResolverOptions<T extends FieldValues> = {
  /**
   * [field, confirmation, message]: the contracts check that a confirmation
   * matches in an object refinement, which zod runs only once every field is
   * valid; checking it here as well shows every problem after one submit.
   */
  confirm?: readonly [Path<T>, Path<T>, string];
};

/**
 * A react-hook-form resolver from a contract's zod schema, so a form refuses
 * exactly what the server would, in the contract's words. Submit handlers
 * receive the parsed values (e-mail trimmed and lower-cased, as the server
 * stores it).
 *
 * Not `zodResolver`: for a union (the terms checkbox: true, 1 or "1") it
 * shows the first member's generic message instead of the union's own.
 */
export function contractResolver<T extends FieldValues>(
  schema: z.ZodType,
  { confirm }: ContractResolverOptions<T> = {},
): Resolver<T> {
  return async (values, _context, options) => {
    const result = await parseCustomerInputAsync(schema, values);
    const errors: Record<string, FieldError> = {};
    for (const issue of result.success ? [] : result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= { type: issue.code, message: issue.message };
    }
    if (confirm) {
      const [field, confirmation, message] = confirm;
      if (values[field] !== values[confirmation]) errors[confirmation] ??= { type: 'validate', message };
    }
    if (result.success && Object.keys(errors).length === 0) {
      return { values: result.data as T, errors: {} };
    }
    return { values: {}, errors: toNestErrors<T>(errors, options) };
  };
}

/** Puts the server's field errors (422) under the form's own inputs; other fields' errors are left to the toast. */
export function markFieldErrors<T extends FieldValues>(
  error: AppError,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    const path = fields.find((name) => name === field);
    if (path && messages[0]) setError(path, { type: 'server', message: messages[0] });
  }
}

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
