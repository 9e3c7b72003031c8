import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '@florin/contracts';

/** Paths the SPA never answers: the API, the websocket, the docs and the dev tools are the server's. */
const SERVER_PREFIXES = ['/api/', '/ws', '/dev/'];

/**
 * Old public addresses (DECISIONS.md [12]) and where they live now: a permanent redirect from the
 * server, so links from elsewhere, crawlers and visitors without JavaScript land on the page too.
 */
const MOVED_PAGES = new Map([['/ContactUs.html', '/contact-us']]);

/**
 * Serves the built web app: hashed assets cached for a year, index.html never
 * cached, and index.html for any other GET that wants HTML (history routing),
 * or the page itself where the build prerendered it;
 * compressed when the build left a compressed copy and the browser accepts it.
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  const prerendered = prerenderedPages(webDist);
  if (built) {
    await app.register(fastifyStatic, {
      root: path.resolve(webDist),
      wildcard: false,
      index: false,
      // A prerendered page is sent at its own address only: hydrated at /prerendered/<name>.html, the router
      // would draw the not-found page over it.
      globIgnore: ['prerendered/**'],
      // The web build writes .br and .gz beside each file (apps/web/vite.config.ts); the browser gets the one it accepts.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const [pathname = '', query] = request.url.split('?');
    const movedTo = MOVED_PAGES.get(pathname);
    if (movedTo && (request.method === 'GET' || request.method === 'HEAD'))
      return reply.redirect(query === undefined ? movedTo : `${movedTo}?${query}`, 301);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !SERVER_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      request.url !== '/api' &&
      (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) {
      const error = new AppError('NOT_FOUND');
      return reply.status(error.status).send(error.toBody(request.id));
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    const page = prerendered.get(pathname) ?? 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });
}

/**
 * The pages the web build drew in advance (apps/web/src/prerender.tsx), by
 * path: `prerendered/home.html` is what /home is sent (index.html with the
 * page's markup in it), `prerendered/index.html` what / is sent.
 */
function prerenderedPages(webDist: string): Map<string, string> {
  const folder = path.join(webDist, 'prerendered');
  if (!fs.existsSync(folder)) return new Map();
  return new Map(
    fs
      .readdirSync(folder)
      .filter((file) => file.endsWith('.html'))
      .map((file) => {
        const name = path.basename(file, '.html');
        return [name === 'index' ? '/' : `/${name}`, `prerendered/${file}`];
      }),
  );
}
