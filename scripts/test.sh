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
  apps/server/src/security/account-races.test.ts
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

# ESLint uses one core for most of its run; typecheck, Prettier and the web build (for the browser tests)
# take the other. Each writes its own log, shown in order once both lanes are done.
static_checks() {
  local dir
  dir=$(mktemp -d)
  npm run --silent lint:eslint > "$dir/eslint" 2>&1 &
  local eslint=$!
  (
    npm run --silent typecheck > "$dir/typecheck" 2>&1 || exit 1
    npm run --silent lint:format > "$dir/prettier" 2>&1 || exit 1
    npm run --silent build > "$dir/build" 2>&1 || exit 1
  ) &
  local others=$!
  local failed=0
  wait $eslint || failed=1
  wait $others || failed=1
  for log in typecheck prettier build eslint; do
    [ -f "$dir/$log" ] || continue
    printf -- '-- %s\n' "$log"
    cat "$dir/$log"
  done
  rm -rf "$dir"
  return $failed
}

step 'System packages (PostgreSQL, Chromium, oathtool, nginx, sqlmap)' bash scripts/ensure-system-deps.sh
step 'Typecheck, lint, format and the web build (two lanes)' static_checks
step 'Unit, web and API tests (API on a PostgreSQL server)' env FLORIN_TEST_DB=postgres npx vitest run
step 'Engine-sensitive API tests on PGlite' env FLORIN_TEST_DB=pglite npx vitest run --project server "${BOTH_ENGINES[@]}"
step 'Two instances behind nginx, crashes under load and sqlmap' npm run --silent test:scale
step 'Browser tests (Playwright, Chromium, on PGlite)' npx playwright test -c e2e/playwright.config.ts
