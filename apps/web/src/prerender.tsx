import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { PrerenderedMetaContext } from './components/page-meta';
import { routes } from './app/router';

/**
 * The public pages the build draws in advance (vite.config.ts, prerender):
 * the server sends their markup, so a visitor on a slow phone reads the page
 * before the JavaScript arrives, which then hydrates it (main.tsx). Only
 * pages that look the same to every visitor: anything that depends on the
 * visitor (the cookie bar, prices, a session, the address's query string)
 * or on the server's data (the fees page's tables) renders after hydration.
 * Each is `/` or one path segment: the server serves `prerendered/<name>.html`
 * for `/<name>` and `prerendered/index.html` for `/` (apps/server/src/http/spa.ts).
 */
export const PRERENDERED_PATHS = [
  '/',
  '/home',
  '/login',
  // The site's static pages (spec 002 §2.13) and the public pages the navigation links to.
  '/terms',
  '/privacy',
  '/GDPR',
  '/cookie',
  '/about-us',
  '/risk-summary',
  '/fees',
  '/Locations',
  '/LearnCrypto',
  '/CryptoBusiness.html',
  '/live-crypto-prices',
  '/contact-us',
] as const;

/**
 * The markup of #root for a path, as the browser's first render will draw it,
 * and the page's meta description if it has one (PageMeta).
 */
export async function renderPage(pathname: string): Promise<{ markup: string; description?: string }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${pathname} redirects; only a page can be prerendered`);
  if (context.statusCode !== 200) {
    throw new Error(`${pathname} answered ${context.statusCode}`, {
      cause: Object.values(context.errors ?? {})[0],
    });
  }
  let description: string | undefined;
  const markup = renderToString(
    <StrictMode>
      <PrerenderedMetaContext
        value={(pageDescription) => {
          description = pageDescription;
        }}
      >
        <AppProviders>
          <StaticRouterProvider
            router={createStaticRouter(handler.dataRoutes, context)}
            context={context}
            hydrate={false}
          />
        </AppProviders>
      </PrerenderedMetaContext>
    </StrictMode>,
  );
  return { markup, description };
}
