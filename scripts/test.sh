#!/usr/bin/env bash
# npm test: every kind of proof, in the order that fails fastest, with a table of where the time went.
# The heavy volumes (every route with 500 hostile inputs, the whole API suite on both engines, …) are
# `npm run test:deep`; see the README for when to run it.
set -euo pipefail
cd "$(dirname "$0")/.."

# The API suite runs in full on PostgreSQL, the production engine. These parts, where the two engines or
# their drivers can behave differently (the ledger, migrations, races and locking, notifications, the
# entry point on its data folder, every route's reads and writes), run on the embedded PGlite as well.
# The embedded default is proven end to end by the browser tests, which run on PGlite.
readonly BOTH_ENGINES=(
  apps/server/src/ledger
  apps/server/src/db
  apps/server/src/main.test.ts
  apps/server/src/security/races.test.ts
  apps/server/src/security/authorization-matrix.test.ts
  apps/server/src/modules/realtime
)

names=()
seconds=()
started_all=$SECONDS

print_table() {
  printf '\n\033[1m%-72s %8s\033[0m\n' 'step' 'time'
  for i in "${!names[@]}"; do
    printf '%-72s %5d:%02d\n' "${names[$i]}" $((seconds[i] / 60)) $((seconds[i] % 60))
  done
  local total=$((SECONDS - started_all))
  printf '\033[1m%-72s %5d:%02d\033[0m\n' 'total' $((total / 60)) $((total % 60))
}
trap print_table EXIT

# step NAME COMMAND…: runs the command, records its wall time.
step() {
  local name=$1
  shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  local started=$SECONDS status=0
  "$@" || status=$?
  names+=("$name")
  seconds+=($((SECONDS - started)))
  return $status
}

# Typecheck, lint and format each use one core: run side by side, each into its own log, shown in order.
static_checks() {
  local dir
  dir=$(mktemp -d)
  npm run --silent typecheck > "$dir/typecheck" 2>&1 &
  local typecheck=$!
  npx eslint . --max-warnings 0 --cache --cache-location .cache/eslint/ > "$dir/eslint" 2>&1 &
  local eslint=$!
  npx prettier --check --cache --cache-location .cache/prettier . > "$dir/prettier" 2>&1 &
  local prettier=$!
  local failed=0
  wait $typecheck || failed=1
  wait $eslint || failed=1
  wait $prettier || failed=1
  for check in typecheck eslint prettier; do
    printf -- '-- %s\n' "$check"
    cat "$dir/$check"
  done
  rm -rf "$dir"
  return $failed
}

step 'System packages (PostgreSQL, Chromium, oathtool, nginx, sqlmap)' bash scripts/ensure-system-deps.sh
step 'Typecheck, lint and format (side by side)' static_checks
step 'Unit, web and API tests (API on a PostgreSQL server)' env FLORIN_TEST_DB=postgres npx vitest run
step 'Engine-sensitive API tests on PGlite' env FLORIN_TEST_DB=pglite npx vitest run --project server "${BOTH_ENGINES[@]}"
step 'Two instances behind nginx, crashes under load and sqlmap' npm run --silent test:scale
step 'Browser tests (Playwright, Chromium, on PGlite)' npm run --silent test:e2e
