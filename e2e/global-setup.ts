import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const builtIndex = path.join(repoRoot, 'apps/web/dist/index.html');
/** Source the web build bundles: if any of it is newer than the build, the tests would drive old screens. */
const SOURCES = ['apps/web/src', 'apps/web/index.html', 'packages/contracts/src', 'packages/domain/src'];

function newestChange(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .filter((entry) => !entry.endsWith('.test.ts'))
    .reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stat.mtimeMs);
}

/**
 * The server (playwright.config.ts, webServer) serves apps/web/dist as built;
 * `npm run test:e2e` builds it first. Running Playwright directly on a missing
 * or stale build fails here, with the fix, rather than in a confusing test.
 * E2E_WEB_DIST names a private build instead, which is not checked.
 */
export default function globalSetup(): void {
  // A private build is the caller's own business: `vite build --outDir $E2E_WEB_DIST` just before the run.
  if (process.env.E2E_WEB_DIST) return;
  const hint = 'Run `npm run build -w @florin/web` (or use `npm run test:e2e`, which builds first).';
  if (!fs.existsSync(builtIndex)) {
    throw new Error(`The web app is not built: ${builtIndex} is missing. ${hint}`);
  }
  const builtAt = fs.statSync(builtIndex).mtimeMs;
  const stale = SOURCES.filter((source) => newestChange(path.join(repoRoot, source)) > builtAt);
  if (stale.length > 0) {
    throw new Error(`The web build is older than ${stale.join(', ')}. ${hint}`);
  }
}
