/**
 * The Lighthouse benchmark (issue 12): Lighthouse from npm driving Debian's
 * Chromium against the real entry point (main.ts on its embedded defaults,
 * serving a fresh production build of the web app), on the landing page and
 * the login page, and a signed-in customer's dashboard (issue 15), with Lighthouse's desktop and mobile settings (mobile:
 * simulated slow 4G and a 4× slower CPU). Each page and form factor runs RUNS
 * times; the median run by performance score is reported. Also the initial
 * JavaScript of each route, from the build's manifest: the entry's chunks
 * plus the route's lazy chunks and theirs, gzip -9 (what the goal counts) and
 * as Lighthouse saw it transferred (brotli, as the server sends it).
 *
 * Prints the figures and writes bench/results/lighthouse.md and its summary
 * for the suite, lighthouse.json (the cold loads, no workload with a peer).
 *
 *   npm run bench:lighthouse   BENCH_LIGHTHOUSE_RUNS (3)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { WebSocket } from 'ws';
import { startMain } from '../../apps/server/src/test/main-process.js';
import { createClient, signIn, signUpCustomer } from '../../apps/server/src/test/http-client.js';
import { freePort } from '../../apps/server/src/test/postgres-server.js';
import { machineInfo } from '../ledger/report.js';
import { positiveNumber, writeResult, writeSummary, type ColdLoad } from '../support.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Math.round(positiveNumber('BENCH_LIGHTHOUSE_RUNS', 3));

/** The pages measured and the source files of their routes (apps/web/src/app/router.tsx). */
const PAGES = [
  {
    name: 'Landing',
    path: '/home',
    routes: ['src/app/public-layout/public-layout.tsx', 'src/features/public/home-page.tsx'],
  },
  {
    name: 'Login',
    path: '/login',
    routes: ['src/app/public-layout/public-layout.tsx', 'src/features/auth/login-page.tsx'],
  },
  // Signed in (issue 15): a verified customer's first visit to their dashboard.
  {
    name: 'Dashboard',
    path: '/user',
    routes: ['src/app/user-layout/user-layout.tsx', 'src/features/dashboard/dashboard-page.tsx'],
    signedIn: true,
  },
] as const satisfies readonly { name: string; path: string; routes: readonly string[]; signedIn?: boolean }[];

const FORM_FACTORS = ['desktop', 'mobile'] as const;
type FormFactor = (typeof FORM_FACTORS)[number];

const GOALS = { desktop: 95, mobile: 90, accessibility: 95, landingJsKb: 150 } as const;

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[] };

function buildWeb(outDir: string): Record<string, ManifestChunk> {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--manifest'], {
    cwd: path.join(repoRoot, 'apps/web'),
    stdio: 'ignore',
  });
  return JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
}

/** The gzip -9 size of everything a first visit to the route loads: the entry and the route's chunks, with their imports. */
function initialJsKb(
  manifest: Record<string, ManifestChunk>,
  outDir: string,
  routes: readonly string[],
): number {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The build manifest names no entry');
  visit(entry);
  for (const route of routes) {
    if (!manifest[route]) throw new Error(`The build manifest has no chunk for ${route}`);
    visit(route);
  }
  const bytes = [...files].reduce(
    (sum, file) => sum + gzipSync(fs.readFileSync(path.join(outDir, file)), { level: 9 }).length,
    0,
  );
  return bytes / 1024;
}

type Measure = {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptKb: number;
};

function measureOf(result: RunnerResult): Measure {
  const { categories, audits } = result.lhr;
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const summary = audits['resource-summary']?.details as
    { items: { resourceType: string; transferSize: number }[] } | undefined;
  const script = summary?.items.find((item) => item.resourceType === 'script')?.transferSize ?? Number.NaN;
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptKb: script / 1024,
  };
}

function median(measures: Measure[]): Measure {
  const sorted = [...measures].sort((a, b) => a.performance - b.performance);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no runs');
  return middle;
}

/**
 * Sets the browser's cookie jar to exactly `cookies` for `url`, over the DevTools protocol. Lighthouse's storage reset
 * keeps cookies, so a cookie an earlier page set (the login page's CSRF cookie) would otherwise outlive it, and a
 * Cookie header passed as extraHeaders loses to the jar's: the dashboard then saw no session and went to /login.
 */
async function setBrowserCookies(
  debuggingPort: number,
  url: string,
  cookies: ReadonlyMap<string, string>,
): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<void>((resolve, reject) => {
      const id = (nextId += 1);
      const onMessage = (data: Buffer) => {
        const answer = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
        if (answer.id !== id) return;
        socket.off('message', onMessage);
        if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
        else resolve();
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('Storage.clearCookies');
    await send('Storage.setCookies', {
      cookies: [...cookies].map(([name, value]) => ({ name, value, url })),
    });
  } finally {
    socket.close();
  }
}

async function main(): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-lighthouse-web-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-lighthouse-data-'));
  console.log('Building the web app…');
  const manifest = buildWeb(outDir);
  const jsKb = new Map(PAGES.map((page) => [page.name, initialJsKb(manifest, outDir, page.routes)]));

  const port = await freePort();
  console.log('Starting main.ts…');
  const server = await startMain({
    port,
    env: { DATA_DIR: dataDir, WEB_DIST: outDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeoutMs: 180_000,
  });
  // The dashboard's visitor: signed up and in through the API; their cookies go into Chromium's jar (setBrowserCookies).
  const customer = createClient(server.url, '127.0.0.1', new Set());
  const email = `lighthouse.${Date.now()}@example.com`;
  await signUpCustomer(customer, email);
  await signIn(customer, email);
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const results = new Map<string, Measure>();
  try {
    for (const page of PAGES) {
      for (const formFactor of FORM_FACTORS) {
        const runs: Measure[] = [];
        // A run Lighthouse itself could not record (NO_NAVSTART now and then) is run again, up to twice.
        for (let run = 0, failures = 0; run < RUNS; run += 1) {
          const flags: Flags = {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility'],
          };
          // Every run is a first visit: the signed-in page with the customer's session and nothing else.
          await setBrowserCookies(chrome.port, server.url, 'signedIn' in page ? customer.cookies : new Map());
          const result = await lighthouse(
            `${server.url}${page.path}`,
            flags,
            formFactor === 'desktop' ? desktopConfig : undefined,
          );
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          if (result.lhr.runtimeError) {
            failures += 1;
            if (failures > 2) throw new Error(result.lhr.runtimeError.message);
            console.log(`${page.name} ${formFactor}: ${result.lhr.runtimeError.code}, running again`);
            run -= 1;
            continue;
          }
          // A session that did not hold would measure the login page the dashboard sends strangers to.
          if (new URL(result.lhr.finalDisplayedUrl).pathname !== page.path)
            throw new Error(`${page.path} ended on ${result.lhr.finalDisplayedUrl}`);
          runs.push(measureOf(result));
        }
        const chosen = median(runs);
        results.set(`${page.name} ${formFactor}`, chosen);
        console.log(
          `${page.name} ${formFactor}: performance ${chosen.performance} (runs ${runs.map((r) => r.performance).join(', ')}), accessibility ${chosen.accessibility}, ` +
            `FCP ${chosen.fcpMs.toFixed(0)} ms, LCP ${chosen.lcpMs.toFixed(0)} ms, TBT ${chosen.tbtMs.toFixed(0)} ms, CLS ${chosen.cls.toFixed(3)}, JS transferred ${chosen.scriptKb.toFixed(1)} KB`,
        );
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = PAGES.flatMap((page) =>
    FORM_FACTORS.map((formFactor: FormFactor) => {
      const measure = results.get(`${page.name} ${formFactor}`);
      if (!measure) throw new Error('missing result');
      const goal = formFactor === 'desktop' ? GOALS.desktop : GOALS.mobile;
      return (
        `| ${page.name} (\`${page.path}\`) | ${formFactor} | ${measure.performance} (goal ≥ ${goal}) | ` +
        `${measure.accessibility} (goal ≥ ${GOALS.accessibility}) | ${measure.fcpMs.toFixed(0)} | ${measure.lcpMs.toFixed(0)} | ` +
        `${measure.tbtMs.toFixed(0)} | ${measure.cls.toFixed(3)} | ${measure.scriptKb.toFixed(1)} |`
      );
    }),
  );
  const jsRows = PAGES.map(
    (page) =>
      `| ${page.name} (\`${page.path}\`) | ${(jsKb.get(page.name) ?? 0).toFixed(1)} |${page.name === 'Landing' ? ` goal ≤ ${GOALS.landingJsKb}` : ''} |`,
  );
  const machine = machineInfo();
  const report = [
    '# Lighthouse: the landing, login and dashboard pages',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:lighthouse\` (bench/lighthouse/run.ts): Lighthouse ` +
      `12 (npm) driving Debian's Chromium against main.ts on its embedded defaults, serving a fresh ` +
      `production build with the brotli copies the build writes. Median of ${RUNS} runs by performance score. Mobile is ` +
      "Lighthouse's default (simulated slow 4G, 4× CPU slowdown); desktop is its desktop preset. The landing and " +
      'login pages are sent drawn (prerendered by the build, apps/web/src/prerender.tsx) and their scripts load after ' +
      "the first paint (the login's captcha after the form is drawn); the dashboard is drawn in the browser.",
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB.toFixed(0)} GiB, Node ${machine.node}, ${machine.os}; ` +
      `load average ${os.loadavg()[0]?.toFixed(1)} when the runs ended.`,
    '',
    '| Page | Form factor | Performance | Accessibility | FCP ms | LCP ms | TBT ms | CLS | JS transferred KB (brotli) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Initial JavaScript per route',
    '',
    'Everything a first visit to the route loads before it can show the page: the entry chunk and its imports plus the',
    "route's lazy chunks (the layout and the page) and theirs, from the build's manifest, each file gzip -9.",
    '',
    '| Route | Initial JS KB (gzip) | |',
    '|---|---|---|',
    ...jsRows,
    '',
  ].join('\n');
  console.log(`Wrote ${await writeResult('lighthouse.md', report)}`);
  const coldLoads = PAGES.flatMap((page) =>
    FORM_FACTORS.map((formFactor): ColdLoad => {
      const measure = results.get(`${page.name} ${formFactor}`);
      if (!measure) throw new Error('missing result');
      return {
        page: page.name,
        path: page.path,
        formFactor,
        ...measure,
        performanceGoal: formFactor === 'desktop' ? GOALS.desktop : GOALS.mobile,
        accessibilityGoal: GOALS.accessibility,
        initialJsKb: jsKb.get(page.name) ?? Number.NaN,
      };
    }),
  );
  console.log(`Wrote ${await writeSummary('lighthouse', { workloads: [], coldLoads })}`);
  fs.rmSync(outDir, { recursive: true, force: true });
}

await main();
