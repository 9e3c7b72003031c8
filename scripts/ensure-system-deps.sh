#!/usr/bin/env bash
# The tests need Debian's PostgreSQL server (the API suite runs on it too), sqlmap,
# oathtool (an independent TOTP implementation), Chromium (Playwright drives it; no browser is ever downloaded) and nginx (the
# load balancer of the two-instance test and bench:scale). Installs them when missing and running as root; otherwise says
# exactly what to install.
set -euo pipefail

missing=()
compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# An independent TOTP implementation: the 2FA tests check our codes against it.
command -v oathtool > /dev/null || missing+=(oathtool)
# The load balancer in front of two instances (apps/server/src/scale/two-instances.test.ts, bench/scale).
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# SQL injection scanning of every parameterised route (apps/server/src/scale/sqlmap.test.ts).
command -v sqlmap > /dev/null || missing+=(sqlmap)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "Installing ${missing[*]} from Debian's packages…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" > /dev/null
  exit 0
fi

echo "The tests need these Debian packages, which are not installed: ${missing[*]}" >&2
echo "Install them with:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
exit 1
