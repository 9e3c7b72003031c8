import { Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CSRF_COOKIE } from '../../../lib/api-client';
import {
  CONSENT_COOKIE,
  forgetCookieConsent,
  REFERRAL_COOKIE,
  useCookieConsent,
} from '../../../lib/cookie-consent';
import { PATHS } from '../../../lib/paths';
import { ScrollableTable, StaticPage } from '../static-page';
import { LastUpdated } from './last-updated';

type CookieRow = { name: string; purpose: string; lasts: string; kind: 'Essential' | 'Only with consent' };

/**
 * Every cookie the site really sets: the server's (apps/server/src/http/auth.ts: the
 * session, the staff session, the CSRF token) and the page's own (lib/cookie-consent.ts).
 */
const COOKIES: CookieRow[] = [
  {
    name: 'access_token',
    purpose: 'Keeps you signed in. Only our server can read it; the page cannot, so no script can steal it.',
    lasts: '1 day, or until you log out',
    kind: 'Essential',
  },
  {
    name: CSRF_COOKIE,
    purpose:
      'Proves that a request to change something (a trade, a withdrawal) comes from our own pages and not from another website.',
    lasts: 'until you close your browser; while you are signed in, as long as your sign-in (1 day)',
    kind: 'Essential',
  },
  {
    name: 'staff_token',
    purpose: 'Keeps our staff signed in to our back office. It is never set for customers or visitors.',
    lasts: '8 hours, or until the staff member logs out',
    kind: 'Essential',
  },
  {
    name: CONSENT_COOKIE,
    purpose: 'Remembers whether you chose Allow Cookies or No Thanks., so we do not ask again.',
    lasts: '150 days',
    kind: 'Essential',
  },
  {
    name: REFERRAL_COOKIE,
    purpose:
      'Remembers the referral code of a referral link you followed, so that it is filled in when you register later.',
    lasts: '14 days, and removed as soon as you register',
    kind: 'Only with consent',
  },
];

export function CookiePage() {
  return (
    <StaticPage
      title="Cookie Policy"
      description="The cookies Florin sets, what each one does and how long it lasts: only essential ones unless you allow more."
      lead={<LastUpdated />}
    >
      <p>
        Cookies are small text files a website stores in your browser. We use as few as we can: the ones that
        keep you signed in and your Account secure, and, only if you allow it, one that remembers a referral
        code. We use no advertising or analytics cookies, and no other company sets cookies through our site.
      </p>

      <h2>The cookies we set</h2>
      <ScrollableTable label="Cookies">
        <table>
          <thead>
            <tr>
              <th scope="col">Cookie</th>
              <th scope="col">What it does, and how long it lasts</th>
            </tr>
          </thead>
          <tbody>
            {COOKIES.map((cookie) => (
              <tr key={cookie.name}>
                <th scope="row">
                  <code>{cookie.name}</code>
                  <br />
                  <Text span fz="xs" fw={400} c="dimmed">
                    {cookie.kind}
                  </Text>
                </th>
                <td>
                  {cookie.purpose}
                  <br />
                  <strong>Lasts:</strong> {cookie.lasts}.
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollableTable>

      <h2>Your choice</h2>
      <p>
        The bar at the bottom of our pages asks whether you allow cookies. Essential cookies are set either
        way, because the site cannot work without them. Nothing that is not essential is set before you choose
        Allow Cookies: if you choose No Thanks., we set no referral cookie and remove one that is already
        there.
      </p>
      <CookieChoice />
      <p>Blocking essential cookies in your browser&apos;s settings stops you from signing in.</p>

      <h2>Other storage in your browser</h2>
      <p>
        When you are signed in, we also keep three small notes in your browser&apos;s storage: that you have
        seen our notice about setting up two-factor authentication, whether you chose to hide your balances on
        the dashboard, and, until you close the tab, which message of the day you have already seen. None of
        them leaves your device.
      </p>

      <h2>More about your data</h2>
      <p>
        Our <Link to={PATHS.privacy}>Privacy Policy</Link> explains how we use personal data, and our{' '}
        <Link to={PATHS.gdpr}>GDPR</Link> page your rights over it.
      </p>
    </StaticPage>
  );
}

const CHOICE_NAMES = { allow: 'Allow Cookies', deny: 'No Thanks.' } as const;

/** What the visitor chose, and the way to choose again; drawn once the browser's cookies can be read. */
function CookieChoice() {
  const consent = useCookieConsent();
  return (
    <Group gap="sm" align="center" mih={36} mb="md">
      <Text>
        {consent === undefined
          ? 'To change your mind, choose again here.'
          : consent === null
            ? 'You have not chosen yet: the bar at the bottom of the page asks you.'
            : `You chose “${CHOICE_NAMES[consent]}”. To change your mind, choose again.`}
      </Text>
      {consent && (
        <Button variant="light" size="compact-md" onClick={forgetCookieConsent}>
          Change cookie choice
        </Button>
      )}
    </Group>
  );
}
