import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { createRouter, loadMatchedRoutes } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const routesLoaded = loadMatchedRoutes();
if (container.hasChildNodes() && (await routesLoaded)) {
  // A page the build prerendered (prerender.tsx) arrives drawn: React takes over its markup rather than drawing it
  // again, as a transition, so the work is cut into slices and a tap or a scroll meanwhile is not kept waiting.
  const app = (
    <StrictMode>
      <App router={createRouter({ isHydrating: true })} />
    </StrictMode>
  );
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  // Drawn by the browser: the spinner while the page's chunks load, then the page. A prerendered page whose
  // chunks failed to load is drawn again this way, so the route's error (with its retry) shows.
  container.replaceChildren();
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <App router={null} />
    </StrictMode>,
  );
  await routesLoaded;
  root.render(
    <StrictMode>
      <App router={createRouter({ isHydrating: false })} />
    </StrictMode>,
  );
}
