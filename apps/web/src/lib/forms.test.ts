import {
  AppError,
  AUTH_TEXTS,
  CUSTOMER_MESSAGES,
  RegisterBodySchema,
  ResetPasswordBodySchema,
} from '@florin/contracts';
import { z } from 'zod';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { contractResolver, markFieldErrors } from './forms';

type RegisterForm = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  accept_terms_and_privacy: boolean;
};

const resolve = contractResolver<RegisterForm>(RegisterBodySchema, {
  confirm: ['password', 'password_confirmation', AUTH_TEXTS.passwordMismatch],
});
const options: ResolverOptions<RegisterForm> = { fields: {}, shouldUseNativeValidation: false };

const valid: RegisterForm = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: '  Ada@Example.COM ',
  password: 'Analytical-Engine-1843',
  password_confirmation: 'Analytical-Engine-1843',
  accept_terms_and_privacy: true,
};

describe('contractResolver', () => {
  it('hands the submit handler the values as the contract parses them', async () => {
    const result = await resolve(valid, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ email: 'ada@example.com', accept_terms_and_privacy: true });
  });

  it("uses the union's own message for the terms box, and reports a mismatch alongside other errors", async () => {
    const result = await resolve(
      { ...valid, password_confirmation: 'something else', accept_terms_and_privacy: false },
      undefined,
      options,
    );
    expect(result.values).toEqual({});
    expect(result.errors).toMatchObject({
      accept_terms_and_privacy: { message: AUTH_TEXTS.acceptTerms },
      password_confirmation: { message: AUTH_TEXTS.passwordMismatch },
    });
  });

  it('keeps the first message per field', async () => {
    const result = await resolve({ ...valid, email: 'not an email', password: 'short' }, undefined, options);
    expect(result.errors).toMatchObject({
      email: { message: 'Please enter a valid email address.' },
      password: { message: AUTH_TEXTS.passwordTooShort },
    });
  });
});

describe('markFieldErrors', () => {
  it("puts the server's first message under each input the form has", () => {
    const setError = vi.fn();
    const error = new AppError('VALIDATION_FAILED', 'The given data was invalid.', {
      password: [AUTH_TEXTS.passwordTooCommon, 'second'],
      token: ['not a field of this form'],
    });
    markFieldErrors<RegisterForm>(error, setError, ['email', 'password']);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith('password', {
      type: 'server',
      message: AUTH_TEXTS.passwordTooCommon,
    });
  });
});

describe('contractResolver with checks the contract gave no words to', () => {
  type ResetForm = { email: string; password: string; password_confirmation: string; token: string };
  const resolveReset = contractResolver<ResetForm>(ResetPasswordBodySchema);
  const resetOptions: ResolverOptions<ResetForm> = { fields: {}, shouldUseNativeValidation: false };

  it('says a truncated reset link is invalid, never what zod says of a short string', async () => {
    const result = await resolveReset(
      {
        email: 'ada@example.com',
        password: 'Analytical-1843',
        password_confirmation: 'Analytical-1843',
        token: 'abc',
      },
      undefined,
      resetOptions,
    );
    expect(result.errors.token?.message).toBe(AUTH_TEXTS.resetTokenInvalid);
  });

  it('gives a sentence a customer understands for a bare zod check', async () => {
    type Form = { code: string; amount: number; site: string };
    const resolveBare = contractResolver<Form>(
      z.object({ code: z.string().min(16), amount: z.number().max(10), site: z.url() }),
    );
    const result = await resolveBare({ code: 'abc', amount: 11, site: 'nowhere' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors.code?.message).toBe('Please enter at least 16 characters.');
    expect(result.errors.amount?.message).toBe('Please enter 10 or less.');
    expect(result.errors.site?.message).toBe(CUSTOMER_MESSAGES.url);
  });
});
