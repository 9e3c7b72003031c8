import { STAFF_ROLE_LABELS, type StaffRole } from '@florin/contracts';
import { renderMail, type Notifier } from '../notifications/service.js';
import type { Rendered } from '../notifications/catalogue.js';

/**
 * The few e-mails staff get. Staff are not customers, so these stay out of
 * the customer notification catalogue (and its Alerts tab).
 */
const STAFF_MAILS = {
  // The action link must be the first address in the text: people (and tests) follow the first one.
  invitation: ({ role, url }: { role: StaffRole; url: string }) => ({
    subject: 'Set your Florin staff password',
    paragraphs: [
      `You have been added to the Florin back office as ${STAFF_ROLE_LABELS[role]}.`,
      'Choose your password with the link below. It works for 72 hours and only once.',
      'The page then takes you to the sign-in. The first time, you will set up two-factor authentication with an authenticator app on your phone.',
      'If you did not expect this, tell your manager.',
    ],
    action: { label: 'Set your password', url },
  }),
  passwordLink: ({ url }: { url: string }) => ({
    subject: 'Set a new Florin staff password',
    paragraphs: [
      'A superadmin sent you a link to set a new password for the Florin back office. It works for 24 hours and only once; until you use it, your current password stays as it is.',
      'If you did not ask for this, tell your manager.',
    ],
    action: { label: 'Set a new password', url },
  }),
  twoFactorReset: ({ loginUrl }: { loginUrl: string }) => ({
    subject: 'Your Florin staff two-factor authentication was reset',
    paragraphs: [
      'A superadmin removed the authenticator from your Florin back-office account, and your sessions have ended.',
      `At your next sign-in at ${loginUrl} you will set up two-factor authentication again.`,
      'If you did not ask for this, tell your manager at once.',
    ],
  }),
} satisfies Record<string, (data: never) => Rendered>;

export type StaffMailer = ReturnType<typeof createStaffMailer>;

export function createStaffMailer(deps: { notifier: Pick<Notifier, 'sendMail'>; publicUrl: string }) {
  const loginUrl = `${deps.publicUrl}/admin/login`;
  // The token travels in the fragment, which browsers never send to a server or in a Referer.
  const setPasswordUrl = (token: string) => `${deps.publicUrl}/admin/set-password#${token}`;

  // Through the outbox, retried when the mail server is down; the change stands either way.
  const send = (to: string, rendered: Rendered, event: string) =>
    deps.notifier.sendMail(renderMail(to, rendered), event);

  return {
    sendInvitation: (to: string, role: StaffRole, token: string) =>
      send(to, STAFF_MAILS.invitation({ role, url: setPasswordUrl(token) }), 'staff_invitation'),
    sendPasswordLink: (to: string, token: string) =>
      send(to, STAFF_MAILS.passwordLink({ url: setPasswordUrl(token) }), 'staff_password_link'),
    sendTwoFactorReset: (to: string) =>
      send(to, STAFF_MAILS.twoFactorReset({ loginUrl }), 'staff_two_factor_reset'),
  };
}
