import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, redirect, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { adminRoute } from '../features/admin/routes';
import { PATHS, SETTINGS_TABS, settingsTabPath } from '../lib/paths';
import { RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error-boundary';
import type { SignedInRouteHandle } from './user-layout/user-layout';

/**
 * A page loaded in its own chunk, with its own error boundary so a failing
 * page keeps the layout around it.
 */
function page(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy' | 'ErrorBoundary'> {
  return { lazy: async () => ({ Component: await load() }), ErrorBoundary: RouteErrorBoundary };
}

const loginPage = page(async () => (await import('../features/auth/login-page')).LoginPage);
const notFoundPage = page(async () => (await import('../components/not-found-page')).NotFoundPage);
const walletsPage = page(async () => (await import('../features/wallets/wallets-page')).WalletsPage);
const openBeforeLive: SignedInRouteHandle = { isOpenBeforeLive: true };

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      // DECISIONS.md: no import from the previous product; whitelisting lives in Settings.
      { path: 'getfifo-upgrade', loader: () => redirect(PATHS.login) },
      { path: 'walletWhitelist', loader: () => redirect(settingsTabPath(SETTINGS_TABS.walletWhitelist)) },
      {
        lazy: async () => ({ Component: (await import('./public-layout/public-layout')).PublicLayout }),
        children: [
          // DECISIONS.md, Routes: `/` is the login screen; the marketing site lives at /home.
          { index: true, ...loginPage },
          { path: 'login', ...loginPage },
          { path: 'home', ...page(async () => (await import('../features/public/home-page')).HomePage) },
          {
            path: 'register',
            ...page(async () => (await import('../features/auth/register-page')).RegisterPage),
          },
          {
            path: 'verify/:token',
            ...page(async () => (await import('../features/auth/verify-email-page')).VerifyEmailPage),
          },
          {
            path: 'forgot-password',
            ...page(async () => (await import('../features/auth/forgot-password-page')).ForgotPasswordPage),
          },
          {
            path: 'password-reset',
            ...page(async () => (await import('../features/auth/password-reset-page')).PasswordResetPage),
          },
          {
            path: 'risk-summary',
            ...page(async () => (await import('../features/public/risk-summary-page')).RiskSummaryPage),
          },
          // Spec 002 §2.13 and DECISIONS.md, Routes: the static pages, and the public pages the navigation links to.
          {
            path: 'terms',
            ...page(async () => (await import('../features/public/legal/terms-page')).TermsPage),
          },
          {
            path: 'privacy',
            ...page(async () => (await import('../features/public/legal/privacy-page')).PrivacyPage),
          },
          {
            path: 'GDPR',
            ...page(async () => (await import('../features/public/legal/gdpr-page')).GdprPage),
          },
          {
            path: 'cookie',
            ...page(async () => (await import('../features/public/legal/cookie-page')).CookiePage),
          },
          {
            path: 'about-us',
            ...page(async () => (await import('../features/public/legal/about-page')).AboutPage),
          },
          {
            path: 'fees',
            ...page(async () => (await import('../features/public/legal/fees-page')).FeesPage),
          },
          {
            path: 'Locations',
            ...page(async () => (await import('../features/public/legal/locations-page')).LocationsPage),
          },
          {
            path: 'LearnCrypto',
            ...page(async () => (await import('../features/public/legal/learn-crypto-page')).LearnCryptoPage),
          },
          {
            path: 'CryptoBusiness.html',
            ...page(
              async () => (await import('../features/public/legal/crypto-business-page')).CryptoBusinessPage,
            ),
          },
          {
            path: 'live-crypto-prices',
            ...page(async () => (await import('../features/public/legal/live-prices-page')).LivePricesPage),
          },
          {
            path: 'contact-us',
            ...page(async () => (await import('../features/public/contact/contact-page')).ContactPage),
          },
          {
            path: 'newsletter/confirm/:token',
            ...page(
              async () =>
                (await import('../features/public/newsletter/newsletter-confirm-page')).NewsletterConfirmPage,
            ),
          },
          {
            path: 'newsletter/unsubscribe/:token',
            ...page(
              async () =>
                (await import('../features/public/newsletter/newsletter-unsubscribe-page'))
                  .NewsletterUnsubscribePage,
            ),
          },
          { path: 'ContactUs.html', loader: () => redirect(PATHS.contact) },
          // Spec 002 §2.9: a referral link by custom slug or code; anything else it cannot find is a 404.
          {
            path: ':id',
            ...page(async () => (await import('../features/referral-landing/referral-page')).ReferralPage),
          },
          { path: '*', ...notFoundPage },
        ],
      },
      // The back office: its own shell and sign-in, in its own chunk (features/admin/routes.tsx).
      adminRoute,
      {
        path: 'user',
        lazy: async () => ({ Component: (await import('./user-layout/user-layout')).UserLayout }),
        children: [
          {
            index: true,
            ...page(async () => (await import('../features/dashboard/dashboard-page')).DashboardPage),
          },
          { path: 'chart', ...page(async () => (await import('../features/market/chart-page')).ChartPage) },
          { path: 'trade', ...page(async () => (await import('../features/trade/trade-page')).TradePage) },
          { path: 'withdraw-deposit', ...walletsPage },
          { path: 'wallets', ...walletsPage },
          { path: 'accounts', ...page(async () => (await import('./accounts-route')).AccountsRoute) },
          {
            path: 'term-deposit',
            ...page(async () => (await import('../features/term-deposit/term-deposit-page')).TermDepositPage),
          },
          {
            path: 'invest',
            ...page(async () => (await import('../features/investor/investor-page')).InvestorPage),
          },
          {
            path: 'tax',
            ...page(async () => (await import('../features/tax/capital-gains-page')).CapitalGainsPage),
          },
          {
            path: 'settings',
            handle: openBeforeLive,
            ...page(async () => (await import('../features/settings/settings-page')).SettingsPage),
          },
          { path: '*', ...notFoundPage },
        ],
      },
    ],
  },
];

/**
 * Loads the chunks of the routes the address matches before the router
 * starts, so its first render is the page: over a prerendered page
 * (prerender.tsx) that render is the hydration, which must draw the same
 * markup. False when a chunk failed to load: that route stays lazy, and the
 * router tries it again and shows the route's error boundary.
 */
export async function loadMatchedRoutes(): Promise<boolean> {
  const matches = matchRoutes(routes, window.location) ?? [];
  const loaded = await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return true;
      const module = await route.lazy().catch(() => undefined);
      if (module) Object.assign(route, module, { lazy: undefined });
      return module !== undefined;
    }),
  );
  return loaded.every(Boolean);
}

/**
 * The browser's router. Taking over a prerendered page it is given (empty)
 * hydration data, which tells it the page is already drawn: it then leaves
 * the scroll where the visitor has taken it while the scripts loaded, rather
 * than back at the top.
 */
export function createRouter({ isHydrating }: { isHydrating: boolean }) {
  return createBrowserRouter(routes, isHydrating ? { hydrationData: {} } : undefined);
}
