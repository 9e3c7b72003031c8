import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import type * as PrerenderModule from './src/prerender';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a .br and a .gz beside every text file of the build, once, at build
 * time; the server sends the one the browser accepts (@fastify/static
 * preCompressed), so no request pays for compression.
 */
function precompress(): Plugin {
  let outDir = '';
  let isServerBuild = false;
  return {
    name: 'florin-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      isServerBuild = Boolean(config.build.ssr);
    },
    async writeBundle(_options, bundle) {
      if (isServerBuild) return;
      const files = [...Object.keys(bundle), 'index.html'].filter((file) =>
        /\.(js|css|html|svg|json)$/.test(file),
      );
      await Promise.all(
        [...new Set(files)].map(async (file) => {
          const source = await fs.readFile(path.join(outDir, file));
          if (source.length < 1024) return;
          await fs.writeFile(
            path.join(outDir, `${file}.br`),
            await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await fs.writeFile(path.join(outDir, `${file}.gz`), await gzipAsync(source, { level: 9 }));
        }),
      );
    },
  };
}

/** The entry script and its module preloads in the built index.html, the entry first, with the address of each. */
const SCRIPT_TAGS =
  /\s*<(?:script type="module"|link rel="modulepreload") crossorigin (?:src|href)="([^"]+)">(?:<\/script>)?/g;
const TITLE_TAG = /<title>[^<]*<\/title>/;
const DESCRIPTION_TAG = /<meta name="description" content="[^"]*" \/>/;
const EMPTY_ROOT = '<div id="root"></div>';

/** Text as a double-quoted HTML attribute value. */
function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * A module script that fetches the app's scripts once the page has been
 * painted: a prerendered page is readable without them, so they should not
 * share the network with the stylesheet its first paint waits for. A tab
 * opened in the background starts them at once.
 */
function bootScript([entry, ...preloads]: string[]): string {
  if (!entry) throw new Error('prerender: index.html names no entry script');
  return [
    `const load = () => {`,
    `  for (const href of ${JSON.stringify(preloads)}) {`,
    `    const link = document.createElement('link');`,
    `    link.rel = 'modulepreload';`,
    `    link.href = href;`,
    `    document.head.append(link);`,
    `  }`,
    `  import(${JSON.stringify(entry)});`,
    `};`,
    `if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(load));`,
    `else load();`,
    ``,
  ].join('\n');
}

/**
 * Draws the pages src/prerender.tsx lists at build time (the public site),
 * so the server can send each with its markup: the page shows before the
 * JavaScript has loaded and run, which on a phone is most of the wait. A second, server-side build
 * of the same sources renders them (same CSS module names, same components),
 * and each page is index.html with its markup in #root, its own title and
 * the boot script in place of the app's scripts.
 */
function prerender(): Plugin {
  const configFile = fileURLToPath(import.meta.url);
  let root = '';
  let isServerBuild = false;
  return {
    name: 'florin-prerender',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      isServerBuild = Boolean(config.build.ssr);
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        if (isServerBuild) return;
        const template = bundle['index.html'];
        if (template?.type !== 'asset') throw new Error('prerender: the bundle has no index.html');
        const source = String(template.source);
        if (!TITLE_TAG.test(source) || !DESCRIPTION_TAG.test(source) || !source.includes(EMPTY_ROOT))
          throw new Error('prerender: index.html has no <title>, no meta description or no empty #root');
        // Inside apps/web, so Node finds the libraries the server build leaves as imports.
        const outDir = path.join(root, 'node_modules/.florin-prerender');
        await build({
          configFile,
          root,
          logLevel: 'warn',
          build: {
            ssr: 'src/prerender.tsx',
            outDir,
            emptyOutDir: true,
            copyPublicDir: false,
            // One file: the lazy pages' chunks would import the entry at its plain address, a second copy of it
            // beside the one loaded below, with contexts of its own (PageMeta would not find the prerender's).
            rolldownOptions: { output: { codeSplitting: false } },
          },
        });
        // A new address each build: Node keeps an imported module for the life of the process (vite build --watch).
        const serverBuild = `${pathToFileURL(path.join(outDir, 'prerender.js')).href}?build=${Date.now()}`;
        const { PRERENDERED_PATHS, renderPage } = (await import(serverBuild)) as typeof PrerenderModule;
        const scripts = [...source.matchAll(SCRIPT_TAGS)].map((tag) => tag[1] ?? '');
        const bootFile = this.getFileName(
          this.emitFile({ type: 'asset', name: 'boot.js', source: bootScript(scripts) }),
        );
        for (const pagePath of PRERENDERED_PATHS as readonly string[]) {
          // React writes what belongs in the head (the page's <title>, preloads) at the start of the markup.
          const { markup: rendered, description } = await renderPage(pagePath);
          const head = /^(?:<title>[^<]*<\/title>|<link [^>]*\/>)*/.exec(rendered)?.[0] ?? '';
          if (!TITLE_TAG.test(head)) throw new Error(`prerender: ${pagePath} has no <title>`);
          const descriptionTag = description
            ? `<meta name="description" content="${escapeAttribute(description)}" />`
            : undefined;
          // Replacer functions: the markup is inserted as it is, never read as a replacement pattern ($&, $').
          const html = source
            .replace(DESCRIPTION_TAG, (original) => descriptionTag ?? original)
            .replace(TITLE_TAG, () => head)
            .replace(SCRIPT_TAGS, '')
            .replace('</head>', () => `  <script type="module" src="/${bootFile}"></script>\n  </head>`)
            .replace(EMPTY_ROOT, () => `<div id="root">${rendered.slice(head.length)}</div>`);
          // `/` is kept as index.html (apps/server/src/http/spa.ts), so a page at /index would take its place.
          if (pagePath === '/index') throw new Error('prerender: /index would be served for /');
          const name = pagePath === '/' ? 'index' : pagePath.slice(1);
          this.emitFile({ type: 'asset', fileName: `prerendered/${name}.html`, source: html });
        }
      },
    },
  };
}

/** Where `npm run dev -w @florin/server` listens; the dev server forwards the API, the websocket and the dev mailbox to it. */
const API_SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), prerender(), precompress()],
  // The year a prerendered page's copyright line was drawn with (public-footer.tsx).
  define: { FLORIN_BUILD_YEAR: JSON.stringify(String(new Date().getFullYear())) },
  server: {
    proxy: {
      '/api': { target: API_SERVER, changeOrigin: false },
      '/ws': { target: API_SERVER, ws: true },
      '/dev/': { target: API_SERVER },
      '/crypto/': { target: API_SERVER },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One stylesheet, linked from index.html: a prerendered page is drawn styled before any JavaScript has run,
    // and no page restyles when its chunk arrives. What this adds to every first load is about 5 KB gzip.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        // The libraries every page needs get chunks of their own, so a release that changes only our code
        // leaves them cached. Everything else stays with automatic splitting, so a library one lazy page
        // uses (charts, later) is not pulled into the first load.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            // Dates and dropzone serve the verification wizard alone: they stay in its lazy chunk.
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/](?!dates|dropzone)/, priority: 10 },
          ],
        },
      },
    },
  },
});
