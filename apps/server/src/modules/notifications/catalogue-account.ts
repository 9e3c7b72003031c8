import { entry } from './shared.js';

/** Signing up and in, and keeping the account safe: e-mail, password, two-factor, sign-in codes and the IP whitelist. */
export const ACCOUNT_NOTIFICATIONS = {
  email_verification: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Verify your email address',
      paragraphs: [
        `Hello ${firstName},`,
        'Please confirm your email address to finish creating your Florin account. The link works for 24 hours.',
      ],
      action: { label: 'Verify email address', url },
    }),
  }),
  already_registered: entry<{ firstName: string; loginUrl: string; resetUrl: string }>({
    render: ({ firstName, loginUrl, resetUrl }) => ({
      subject: 'You already have a Florin account',
      paragraphs: [
        `Hello ${firstName},`,
        'Someone, probably you, tried to create a Florin account with this email address. You already have one, so nothing was changed.',
        `Sign in at ${loginUrl}, or if you have forgotten your password, reset it at ${resetUrl}.`,
        'If this was not you, you can ignore this email.',
      ],
    }),
  }),
  password_reset: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Reset your Florin password',
      paragraphs: [
        `Hello ${firstName},`,
        'We received a request to reset your password. The link works for one hour and only once.',
        'If you did not ask for this, ignore this email: your password stays as it is.',
      ],
      action: { label: 'Reset password', url },
    }),
  }),
  email_change_confirm: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Confirm your new email address',
      paragraphs: [
        `Hello ${firstName},`,
        'Please confirm that this is the new email address for your Florin account. The link works for 24 hours.',
      ],
      action: { label: 'Confirm new email address', url },
    }),
  }),
  email_change_requested: entry<{ firstName: string; newEmail: string }>({
    render: ({ firstName, newEmail }) => ({
      subject: 'A change of your email address was requested',
      paragraphs: [
        `Hello ${firstName},`,
        `Someone signed in to your Florin account asked to change its email address to ${newEmail}. It changes only when the new address confirms it.`,
        'If this was not you, change your password now and contact support.',
      ],
    }),
  }),
  email_changed: entry<{ firstName: string; newEmail: string }>({
    render: ({ firstName, newEmail }) => ({
      subject: 'Your email address was changed',
      paragraphs: [
        `Hello ${firstName},`,
        `The email address of your Florin account is now ${newEmail}.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  password_changed: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Your password was changed',
      paragraphs: [
        `Hello ${firstName},`,
        'The password of your Florin account was changed: your other sessions were signed out and your API keys were deleted (create new ones in Settings if you use them).',
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  two_factor_enabled: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Two-factor authentication is on',
      paragraphs: [
        `Hello ${firstName},`,
        'Two-factor authentication is now on for your Florin account. Keep your recovery codes somewhere safe.',
      ],
    }),
  }),
  two_factor_disabled: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Two-factor authentication was turned off',
      paragraphs: [
        `Hello ${firstName},`,
        'Two-factor authentication was turned off for your Florin account.',
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  recovery_code_used: entry<{ firstName: string; left: number }>({
    render: ({ firstName, left }) => ({
      subject: 'A recovery code was used to sign in',
      paragraphs: [
        `Hello ${firstName},`,
        `A recovery code was used to sign in to your Florin account. You have ${left} left.`,
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  login: entry<{ firstName: string; ip: string; at: string }>({
    optional: 'login_notifications',
    render: ({ firstName, ip, at }) => ({
      subject: 'New sign-in to your Florin account',
      paragraphs: [
        `Hello ${firstName},`,
        `Your account was signed in to on ${at} from ${ip}.`,
        'If this was not you, reset your password now.',
      ],
    }),
  }),
  logout: entry<{ firstName: string; at: string }>({
    optional: 'loginout_notifications',
    render: ({ firstName, at }) => ({
      subject: 'You signed out of Florin',
      paragraphs: [`Hello ${firstName},`, `Your account was signed out on ${at}.`],
    }),
  }),
  // ---- codes mailed to finish signing in ----
  sign_in_code: entry<{ firstName: string; code: string; minutes: number; ip: string }>({
    render: ({ firstName, code, minutes, ip }) => ({
      subject: 'Your sign-in code',
      paragraphs: [
        `Hello ${firstName},`,
        `Your code to finish signing in to Florin is ${code}. It works once, for ${minutes} minutes.`,
        `Someone signed in with your password from the IP address ${ip}. If this was not you, do not share the code with anyone, change your password and contact support.`,
      ],
    }),
  }),
  // ---- whitelists and sign-in security (issue 8) ----
  ip_whitelisted: entry<{ firstName: string; ip: string }>({
    render: ({ firstName, ip }) => ({
      subject: 'An IP address was whitelisted',
      paragraphs: [
        `Hello ${firstName},`,
        `The IP address ${ip} was added to the sign-in whitelist of your Florin account. You can now sign in only from the addresses on that list.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  ip_whitelist_removed: entry<{ firstName: string; ip: string }>({
    render: ({ firstName, ip }) => ({
      subject: 'An IP address was removed from your whitelist',
      paragraphs: [
        `Hello ${firstName},`,
        `The IP address ${ip} was removed from the sign-in whitelist of your Florin account.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  login_blocked_ip: entry<{ firstName: string; ip: string; at: string }>({
    render: ({ firstName, ip, at }) => ({
      subject: 'A sign-in from an unknown IP address was refused',
      paragraphs: [
        `Hello ${firstName},`,
        `On ${at} someone signed in to your Florin account with the right password from ${ip}, which is not on your IP whitelist, so we refused it.`,
        'If this was you, sign in from a whitelisted address and add this one in Settings. If it was not, change your password now.',
      ],
    }),
  }),
} as const;
