import { z } from 'zod';
import { NotificationFlagsSchema } from './alerts.js';
import { defineEndpoint } from './endpoint.js';
import { VerificationStateSchema } from './kyc-verification-state.js';
import { TEXT_RULE_TEXTS, nameSchema } from './text.js';

/** The spec's texts for identity screens, word for word (DECISIONS.md replaces some). */

/** An e-mailed code works this long, once: the server expires it, and the modals offer Resend after it. */
export const EMAILED_CODE_MINUTES = 10;
export const AUTH_TEXTS = {
  registered:
    'Your account has been created. Please check and verify your email in order for you to proceed.',
  passwordMismatch: 'Password did not match!',
  acceptTerms: 'Please Accept Terms & Conditions and Privacy Policy',
  loginFailedTitle: 'Login Failed!',
  emailNotVerifiedTitle: 'Email not yet verified!',
  emailNotVerified: 'Please verify your email address before signing in. We can send the link again.',
  invalidCredentials: 'The email or password is incorrect.',
  captchaRequired: 'Please complete the captcha.',
  captchaFailed: 'The captcha could not be verified. Please try again.',
  wrongPasscode: 'Wrong Passcode.',
  wrongToggleCode: 'Wrong passcode.',
  twoFactorToggled: 'Successfully Activated or Deactivated Two Factor Authentication',
  loginSessionExpired: 'Your sign-in took too long. Please enter your email and password again.',
  verifySuccessBanner: 'Account Successfully Verified!',
  verifyErrorBanner: 'Verification Token Not Found or User Already Verified!',
  emailChangedBanner: 'Email Updated Successfully!',
  emailTokenInvalidBanner: 'Invalid Email Reset Token!',
  verified: 'Your email has been verified. You can now sign in.',
  verificationSent: 'We have sent you a new verification email.',
  resetLinkSent: 'If an account exists for this email, we have sent a password reset link.',
  resetTokenInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  passwordReset: 'Password Successfully Reset',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  currentPasswordWrong: 'The current password is incorrect.',
  passwordTooShort: 'The password must be at least 8 characters.',
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  emailTaken: 'An account with this email already exists.',
  emailChangeSent: 'We have sent a confirmation link to your new email address.',
  loggedOut: 'You have been signed out.',
  /** A first name opens the verification mail ("Hello …,"): one line, nothing invisible (text.ts). */
  nameInvalid: TEXT_RULE_TEXTS.nameInvalid,
} as const;

export const PASSWORD_MIN_LENGTH = 8;

const email = z.string().trim().toLowerCase().max(254).email('Please enter a valid email address.');
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, AUTH_TEXTS.passwordTooShort)
  .max(200, 'The password must be at most 200 characters.');
const name = (label: string) =>
  nameSchema({
    required: `The ${label} field is required.`,
    tooLong: `The ${label} may be at most 100 characters.`,
    max: 100,
  });
/** 6 digits from an authenticator, or one of the ten recovery codes (xxxxx-xxxxx). */
export const PasscodeSchema = z
  .string()
  .trim()
  .regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, 'Enter the 6-digit code from your authenticator app.');
const ok = z.object({ message: z.string() });

function confirmed<T extends { password: string; password_confirmation: string }>(schema: z.ZodType<T>) {
  return schema.refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    message: AUTH_TEXTS.passwordMismatch,
  });
}

// ---- the user as the signed-in screens see it ----

/** The account itself, as the auth module keeps it. */
const AccountSchema = z.object({
  id: z.number().int(),
  user_identification: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** An e-mail change waiting for confirmation from the new address (the shell's Resend Email banner). */
  pending_email: z.string().nullable(),
  email_verified: z.boolean(),
  last_login: z.string().nullable(),
  /** 1 live; anything else: not yet live. */
  status: z.number().int(),
  /** 2: on hold by compliance. */
  block_status: z.number().int(),
  account_type: z.enum(['Individual', 'Corporate']).nullable(),
  /** 1 instant account, 2 trading account. */
  platform: z.number().int(),
  upgraded: z.number().int(),
  /** 1: a second factor is required (the spec's disable_{product}_2fa). */
  disable_florin_2fa: z.number().int(),
  platform_2fa_mobile: z.number().int(),
  recovery_codes_left: z.number().int(),
  referral_code: z.string(),
  is_referral_used: z.number().int(),
  /** The Alerts tab's switches (alerts.ts). */
  ...NotificationFlagsSchema.shape,
  /**
   * The account's end (issue 13): when the firm gave notice, when only withdrawals remain
   * (terminated_at), and when sign-in stops (access_ends_at). All null for an account in good standing.
   */
  termination_notice_at: z.string().nullable(),
  terminated_at: z.string().nullable(),
  access_ends_at: z.string().nullable(),
});

/** The account plus where it is in identity verification (the wizard, Getting Started and the shell read it). */
export const UserSchema = AccountSchema.extend(VerificationStateSchema.shape);
export type User = z.infer<typeof UserSchema>;

export const getUser = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user',
  summary: 'The signed-in user',
  responses: { 200: z.object({ data: UserSchema }) },
});

// ---- CSRF ----

/** Sets the csrf_token cookie when missing; the client echoes it in X-CSRF-Token on every change. */
export const getCsrfToken = defineEndpoint({
  method: 'GET',
  path: '/api/v1/csrf',
  summary: 'The CSRF cookie for a browser that has none yet',
  responses: { 200: z.object({ ok: z.literal(true) }) },
});

// ---- captcha ----

export const getCaptchaChallenge = defineEndpoint({
  method: 'GET',
  path: '/api/v1/captcha/challenge',
  summary: 'An ALTCHA proof-of-work challenge, single use, valid 10 minutes',
  responses: { 200: z.looseObject({}) },
});

// ---- registration and e-mail verification ----

export const RegisterBodySchema = confirmed(
  z.strictObject({
    first_name: name('first name'),
    last_name: name('last name'),
    email,
    password: newPassword,
    password_confirmation: z.string(),
    accept_terms_and_privacy: z.union([z.literal(true), z.literal(1), z.literal('1')], {
      error: AUTH_TEXTS.acceptTerms,
    }),
    referral_code: z.string().trim().max(64).nullish(),
  }),
);
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const registerUser = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user-register',
  summary: 'Create an account and send the verification e-mail',
  body: RegisterBodySchema,
  responses: { 201: ok },
});

const TokenParams = z.strictObject({ token: z.string().min(16).max(200) });

export const verifyEmail = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user-verify/{token}',
  summary: 'Confirm an e-mail address with the token from the verification link',
  params: TokenParams,
  responses: { 200: ok },
});

export const resendVerification = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/email-resend-verification/{userId}',
  summary: 'Send the verification e-mail again (or the e-mail change confirmation, when one is pending)',
  params: z.strictObject({ userId: z.coerce.number().int().positive() }),
  responses: { 200: ok },
});

// ---- sign-in ----

export const LoginBodySchema = z.strictObject({
  username: email,
  password: z.string().min(1, 'The password field is required.').max(200),
  /** The ALTCHA widget's payload (base64 JSON). */
  altcha: z.string().min(1, AUTH_TEXTS.captchaRequired).max(10_000),
});

export const SessionSchema = z.object({
  access_token: z.string(),
  /** Seconds; the cookie lasts floor(expires_in / 86400) days. */
  expires_in: z.number().int(),
  platform: z.number().int(),
  upgraded: z.number().int(),
});

export const LoginResponseSchema = z.union([
  SessionSchema.extend({ data: z.object({ disable_2fa: z.literal(0), verified: z.literal(true) }) }),
  /** A second factor is needed: no session yet, only a short-lived token for /login-2fa. */
  z.object({
    login_token: z.string(),
    expires_in: z.number().int(),
    /** email_code: the code was e-mailed for this sign-in (a customer on e-mailed codes, no authenticator). */
    data: z.object({ disable_2fa: z.literal(1), verified: z.literal(true), email_code: z.boolean() }),
  }),
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const login = defineEndpoint({
  method: 'POST',
  path: '/api/v1/login',
  summary: 'Sign in with e-mail, password and captcha',
  body: LoginBodySchema,
  responses: { 200: LoginResponseSchema },
});

export const login2fa = defineEndpoint({
  method: 'POST',
  path: '/api/v1/login-2fa',
  summary:
    'Finish signing in with the authenticator code, a recovery code, or the code e-mailed for this sign-in',
  body: z.strictObject({ login_token: z.string().min(16).max(200), passcode: PasscodeSchema }),
  responses: { 200: SessionSchema },
});

export const logout = defineEndpoint({
  method: 'POST',
  path: '/api/v1/logout',
  summary: 'End this session',
  responses: { 200: ok },
});

// ---- passwords ----

export const forgotPassword = defineEndpoint({
  method: 'POST',
  path: '/api/v1/password/email',
  summary: 'Send a reset link if the e-mail belongs to an account (the answer never says)',
  body: z.strictObject({ email }),
  responses: { 200: ok },
});

/** The token of a reset link. A link cut short by a mail client is the usual misfit: the customer is told to ask for a new one. */
export const ResetTokenSchema = z
  .string()
  .min(16, AUTH_TEXTS.resetTokenInvalid)
  .max(200, AUTH_TEXTS.resetTokenInvalid);

export const ResetPasswordBodySchema = confirmed(
  z.strictObject({
    email,
    password: newPassword,
    password_confirmation: z.string(),
    token: ResetTokenSchema,
  }),
);

export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/api/v1/password/reset',
  summary: 'Set a new password with the token from the reset link; signs out every session',
  body: ResetPasswordBodySchema,
  responses: { 200: ok },
});

export const ChangePasswordBodySchema = confirmed(
  z.strictObject({
    current_password: z.string().min(1, 'The current password field is required.').max(200),
    password: newPassword,
    password_confirmation: z.string(),
  }),
);

export const changePassword = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/settings/change-password',
  summary: 'Change the password; signs out every other session',
  body: ChangePasswordBodySchema,
  responses: { 200: ok },
});

// ---- e-mail change ----

export const requestEmailChange = defineEndpoint({
  method: 'POST',
  path: '/api/v1/settings/email',
  summary: 'Ask to change the e-mail: a link goes to the new address, a notice to the old one',
  body: z.strictObject({ email, password: z.string().min(1).max(200) }),
  responses: { 200: ok },
});

export const confirmEmailChange = defineEndpoint({
  method: 'GET',
  path: '/api/v1/settings/email/confirm/{token}',
  summary: 'The link in the e-mail: switches the address and lands on /login with the result',
  params: TokenParams,
  responses: { 302: z.null() },
});

// ---- two-factor authentication ----

export const generateTwoFactor = defineEndpoint({
  method: 'GET',
  path: '/api/v1/two-factor-authentication/generate',
  summary: 'A new authenticator secret to scan; it only takes effect once a code from it is confirmed',
  responses: { 200: z.object({ data: z.object({ secret: z.string(), qr_url: z.string() }) }) },
});

export const toggleTwoFactor = defineEndpoint({
  method: 'POST',
  path: '/api/v1/two-factor-authentication/toggle',
  summary: 'Turn 2FA on with a code from the new secret, or off with a current code',
  body: z.strictObject({
    passcode: PasscodeSchema,
    /** 0: turn on; 1: turn off (the spec's field, named from the "disabled" side). */
    disable_2fa: z.union([z.literal(0), z.literal(1)]),
    /** Sent by the spec's client; ignored: the server uses the secret it generated. */
    google2fa_secret: z.string().max(200).optional(),
    google2fa_url: z.string().max(1000).optional(),
  }),
  responses: {
    200: z.object({
      message: z.string(),
      /** Only when 2FA was just turned on: ten single-use codes, shown once. */
      recovery_codes: z.array(z.string()).optional(),
    }),
  },
});

/**
 * Sent by the web app with a request nobody at the screen asked for (a page refreshing itself while no
 * key or pointer has moved for a minute): it is answered, but does not count as the signed-in person's
 * activity, so a page that polls does not keep an unattended session from its idle end.
 */
export const UNATTENDED_HEADER = 'x-florin-unattended';
