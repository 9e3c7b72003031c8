#!/usr/bin/env bash
# npm test: everything, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step 'System packages (PostgreSQL, Chromium, oathtool, nginx, sqlmap)'
bash scripts/ensure-system-deps.sh

step 'Typecheck'
npm run --silent typecheck

step 'Lint and format'
npm run --silent lint

step 'Unit and API tests on PGlite'
npx vitest run

step 'API tests on a PostgreSQL server'
FLORIN_TEST_DB=postgres npx vitest run --project server

step 'Two instances behind nginx, crashes under load and sqlmap, on a PostgreSQL server'
npm run --silent test:scale

step 'Browser tests (Playwright, Chromium)'
npm run --silent test:e2e
