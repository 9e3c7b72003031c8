import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { createRouter } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App router={await createRouter()} />
  </StrictMode>
);
// A page the build prerendered (prerender.tsx) arrives drawn: React takes over its markup rather than drawing it
// again, as a transition, so the work is cut into slices and a tap or a scroll meanwhile is not kept waiting.
if (container.hasChildNodes()) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else createRoot(container).render(app);
