#!/usr/bin/env bash
# Restores a backup made by scripts/backup.sh, then checks it before anyone is let in
# (docs/operations.md, "Backups"). It reads the variables the server reads, and is run from the
# repository (or the image's /app). apps/server/src/ops/backup-drill.test.ts runs it.
#
#   PostgreSQL: createdb on the new server first, then
#     DATABASE_URL=postgres://…/florin ENCRYPTION_KEY=… DATA_DIR=/data bash scripts/restore.sh /backups/2026-11-25
#   PGlite (DATA_DIR must be new or empty):
#     DATA_DIR=./data bash scripts/restore.sh /backups/2026-11-25
#
# The check at the end is the ledger's invariants with every domain check (what the server runs
# before it serves) and every document's stored file against the SHA-256 recorded at upload.
# PG_BIN: the folder holding pg_restore (default: PATH).
set -euo pipefail

fail() {
  echo "restore: $*" >&2
  exit 1
}

in=${1:?usage: bash scripts/restore.sh BACKUP_DIR}
[ -d "$in" ] || fail "no backup folder $in"
in=$(cd "$in" && pwd)
# Absolute before moving to the repository, so the check below opens the folder restored here.
data_dir=$(realpath -m "${DATA_DIR:-./data}")
export DATA_DIR=$data_dir
cd "$(dirname "$0")/.."
pg_tool() { "${PG_BIN:+$PG_BIN/}$1" "${@:2}"; }
umask 077

if [ -f "$in/florin.pgdump" ]; then
  [ -n "${DATABASE_URL:-}" ] || fail 'set DATABASE_URL to the empty database to restore into'
  # One transaction: into a database that is not empty nothing is restored at all.
  pg_tool pg_restore --no-owner --no-acl --exit-on-error --single-transaction \
    --dbname="$DATABASE_URL" "$in/florin.pgdump"
  echo 'restore: database restored'

  if [ -n "${STORAGE_S3_URL:-}" ]; then
    echo "restore: documents are read from the bucket $STORAGE_S3_URL"
  elif [ -d "$in/uploads" ]; then
    mkdir -p "$data_dir/uploads"
    chmod 700 "$data_dir/uploads"
    # Names are random and files never change once written, so copying over a folder is safe.
    cp -pR "$in/uploads/." "$data_dir/uploads/"
    echo "restore: documents copied to $data_dir/uploads"
  fi
elif [ -f "$in/florin-data.tar.gz" ]; then
  [ -z "${DATABASE_URL:-}" ] || fail 'this is a PGlite backup: unset DATABASE_URL'
  if [ -e "$data_dir" ] && [ -n "$(ls -A "$data_dir")" ]; then fail "$data_dir is not empty: restore into a new folder"; fi
  mkdir -p "$data_dir"
  chmod 700 "$data_dir"
  tar -C "$data_dir" -xzf "$in/florin-data.tar.gz"
  echo "restore: data folder restored to $data_dir"
else
  fail "$in holds no florin.pgdump or florin-data.tar.gz"
fi

node --import tsx apps/server/src/ops/restore-check-cli.ts
