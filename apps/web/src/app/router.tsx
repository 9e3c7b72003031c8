import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error-boundary';

/**
 * A page loaded in its own chunk, with its own error boundary so a failing
 * page keeps the layout around it.
 */
function page(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy' | 'ErrorBoundary'> {
  return { lazy: async () => ({ Component: await load() }), ErrorBoundary: RouteErrorBoundary };
}

const homePage = page(async () => (await import('../features/public/home-page')).HomePage);

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      {
        lazy: async () => ({ Component: (await import('./public-layout/public-layout')).PublicLayout }),
        children: [
          // TODO(#3): `/` is the login screen (spec DECISIONS, Routes): swap this one entry for it.
          { index: true, ...homePage },
          { path: 'home', ...homePage },
          {
            path: 'risk-summary',
            ...page(async () => (await import('../features/public/risk-summary-page')).RiskSummaryPage),
          },
          { path: '*', ...page(async () => (await import('../components/not-found-page')).NotFoundPage) },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
