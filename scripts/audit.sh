#!/usr/bin/env bash
# npm run audit: npm's advisories against the production dependencies (what the server ships with),
# failing on a high or critical one. Exit 0: none; 1: at least one (listed above the message);
# 2: no verdict, because the registry's advisory service could not be asked. Findings and the
# reasons for any left in place are in docs/decisions/070-npm-audit-of-production-dependencies.md.
set -uo pipefail
cd "$(dirname "$0")/.."

output=$(npm audit --omit=dev --audit-level=high 2>&1)
status=$?
printf '%s\n' "$output"

if [ "$status" -eq 0 ]; then
  echo 'npm audit: no high or critical advisory against the production dependencies.'
  exit 0
fi
if grep -Eq 'audit endpoint returned an error|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN' <<<"$output"; then
  echo 'npm audit: NO VERDICT. The registry did not answer the advisory request (above), so nothing was checked.' >&2
  exit 2
fi
echo 'npm audit: high or critical advisories against the production dependencies (above).' \
  'Upgrade each, or explain in docs/decisions/070-npm-audit-of-production-dependencies.md why it stays.' >&2
exit 1
