#!/usr/bin/env bash
# Runs the Dockerfile's steps without a Docker engine (our machines have none): the build stage in a
# clean copy of the committed tree, the runtime stage's start command as an unprivileged user when
# running as root, then checks that the result serves the web app and answers its readiness check.
# What it cannot check: the base image and the image's layers themselves.
#   bash scripts/image-build.sh            (from the repository root; about two minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d /tmp/florin-image.XXXXXX)
data=$(mktemp -d /tmp/florin-image-data.XXXXXX)
server_pid=''
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null || true
  rm -rf "$work" "$data"
}
trap cleanup EXIT

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "Build stage: the committed tree (git archive HEAD) in $work"
git archive HEAD | tar -x -C "$work"
cd "$work"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent build
npm prune --omit=dev --no-audit --no-fund --loglevel=error
rm -rf apps/web/src

step 'What the runtime stage keeps'
du -sh node_modules apps/web/dist | sed 's/^/  /'
for tool in vite typescript vitest @playwright/test eslint; do
  if [ -e "node_modules/$tool" ]; then
    echo "  a build tool was kept for the runtime: $tool" >&2
    exit 1
  fi
done

step 'Runtime stage: NODE_ENV=production, the CMD of the image'
port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
run_as=()
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
  chown -R nobody "$data"
  # mktemp makes the folder 0700; the image's files are readable by its unprivileged user, as here.
  chmod 755 "$work"
  run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi
# Production refuses to start without its key, a mail server, an https address and the company's details
# (config.ts). Nothing is mailed here, so the mail server need not exist. No exchange, node or bucket
# either: the check allows those stand-ins by name.
env -i PATH="$PATH" HOME="$data" NODE_ENV=production NODE_OPTIONS=--max-semi-space-size=32 PORT="$port" HOST=127.0.0.1 DATA_DIR="$data" \
  ADMIN_PASSWORD='image-build-check-password' LOG_LEVEL=warn ENCRYPTION_KEY="$(openssl rand -base64 32)" \
  SMTP_URL=smtp://127.0.0.1:2525 PUBLIC_URL=https://florin.example \
  COMPANY_NAME='Florin Ltd' COMPANY_NUMBER=12345678 COMPANY_ADDRESS='1 Poultry, London EC2R 8EJ' \
  COMPANY_FCA_REFERENCE=987654 ALLOW_STAND_INS=market,chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads \
  "${run_as[@]}" node --import tsx apps/server/src/main.ts > "$data.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/api/v1/ready" > /dev/null 2>&1; then break; fi
  if ! kill -0 "$server_pid" 2> /dev/null; then
    cat "$data.log" >&2
    echo 'The server stopped before it was ready.' >&2
    exit 1
  fi
  sleep 1
done
ready=$(curl -fsS "http://127.0.0.1:$port/api/v1/ready")
echo "  /api/v1/ready: $ready"
curl -fsS "http://127.0.0.1:$port/login" | grep -q '<div id="root">' \
  || { echo 'The web app is not served.' >&2; exit 1; }
echo '  /login serves the web app'
rm -f "$data.log"
step 'The image build steps work'
