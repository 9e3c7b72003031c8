#!/usr/bin/env bash
# npm run test:deep: the random and heavy tests at their full volumes, on both engines as npm test
# runs them. npm test runs fewer random cases of each (fresh seeds every run); this is the soak.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

export HOSTILE_INPUTS_PER_ROUTE="${HOSTILE_INPUTS_PER_ROUTE:-500}"
export LEDGER_MODEL_RUNS="${LEDGER_MODEL_RUNS:-200}"
export CRASH_KILLS="${CRASH_KILLS:-20}"

deep=(
  apps/server/src/security/hostile-input.test.ts
  apps/server/src/ledger/ledger.model.test.ts
)

step "Hostile input ($HOSTILE_INPUTS_PER_ROUTE per route) and the ledger model ($LEDGER_MODEL_RUNS runs) on PGlite"
npx vitest run --project server "${deep[@]}"

step 'The same on a PostgreSQL server'
FLORIN_TEST_DB=postgres npx vitest run --project server "${deep[@]}"

step "Crashes under load ($CRASH_KILLS server kills) on a PostgreSQL server"
FLORIN_TEST_SCALE=1 npx vitest run --project server apps/server/src/scale/crash.test.ts
