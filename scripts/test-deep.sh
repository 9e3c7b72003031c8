#!/usr/bin/env bash
# npm run test:deep: what npm test runs less of. The whole API suite on PGlite too (npm test runs only
# its engine-sensitive parts there), and the random tests at their full volumes on both engines
# (npm test draws fewer cases of each, from a fresh seed every run).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

export HOSTILE_INPUTS_PER_ROUTE="${HOSTILE_INPUTS_PER_ROUTE:-500}"
export LEDGER_MODEL_RUNS="${LEDGER_MODEL_RUNS:-200}"
export CRASH_KILLS="${CRASH_KILLS:-20}"

step "The whole API suite on PGlite ($HOSTILE_INPUTS_PER_ROUTE hostile inputs per route, $LEDGER_MODEL_RUNS ledger model runs)"
FLORIN_TEST_DB=pglite npx vitest run --project server

step 'Hostile input and the ledger model at the same volumes on a PostgreSQL server'
FLORIN_TEST_DB=postgres npx vitest run --project server \
  apps/server/src/security/hostile-input.test.ts apps/server/src/ledger/ledger.model.test.ts

step "Crashes under load ($CRASH_KILLS server kills) on a PostgreSQL server"
FLORIN_TEST_SCALE=1 npx vitest run --project server apps/server/src/scale/crash.test.ts
