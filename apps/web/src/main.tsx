import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { PageLoader } from './components/page-loader';
import { App } from './app/app';
import { AppProviders } from './app/providers';
import { createRouter } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const routerReady = createRouter();
if (container.hasChildNodes()) {
  // A page the build prerendered (prerender.tsx) arrives drawn: React takes over its markup rather than drawing it
  // again, as a transition, so the work is cut into slices and a tap or a scroll meanwhile is not kept waiting.
  const app = (
    <StrictMode>
      <App router={await routerReady} />
    </StrictMode>
  );
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  const root = createRoot(container);
  // The spinner while the chunks of the address's routes load (createRouter), then the page.
  root.render(
    <StrictMode>
      <AppProviders>
        <PageLoader />
      </AppProviders>
    </StrictMode>,
  );
  root.render(
    <StrictMode>
      <App router={await routerReady} />
    </StrictMode>,
  );
}
