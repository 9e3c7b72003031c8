#!/usr/bin/env bash
# Backs up Florin into a new folder (docs/operations.md, "Backups"). It reads the variables the
# server reads; apps/server/src/ops/backup-drill.test.ts runs it and restores what it writes.
#
#   PostgreSQL, while Florin runs:  DATABASE_URL=postgres://… DATA_DIR=/data bash scripts/backup.sh /backups/2026-11-25
#     florin.pgdump (pg_dump --format=custom: one consistent snapshot) and then uploads/ (the
#     documents in DATA_DIR/uploads; skipped when STORAGE_S3_URL puts them in a bucket).
#   PGlite, with Florin stopped:    DATA_DIR=./data bash scripts/backup.sh /backups/2026-11-25
#     florin-data.tar.gz: the whole data folder (database, uploads, generated secrets).
#
# PG_BIN: the folder holding pg_dump and pg_restore (default: PATH). Their major version must be
# the server's or newer.
set -euo pipefail

fail() {
  echo "backup: $*" >&2
  exit 1
}

out=${1:?usage: bash scripts/backup.sh BACKUP_DIR (a new or empty folder)}
data_dir=${DATA_DIR:-./data}
pg_tool() { "${PG_BIN:+$PG_BIN/}$1" "${@:2}"; }

# Backups hold personal data and (PGlite) the encryption key: readable by this user alone.
umask 077
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then fail "$out is not empty: back up into a new folder"; fi
mkdir -p "$out"

if [ -n "${DATABASE_URL:-}" ]; then
  # The dump first, then the files: every document row in the dump had its file stored before
  # the row committed, so the copy taken afterwards has it. Files uploaded meanwhile are extra.
  pg_tool pg_dump --format=custom --file="$out/florin.pgdump.partial" --dbname="$DATABASE_URL"
  pg_tool pg_restore --list "$out/florin.pgdump.partial" > /dev/null || fail 'the dump cannot be read back'
  mv "$out/florin.pgdump.partial" "$out/florin.pgdump"
  echo "backup: database dumped to $out/florin.pgdump"

  if [ -n "${STORAGE_S3_URL:-}" ]; then
    echo "backup: documents are in the bucket $STORAGE_S3_URL; back it up there (versioning, replication)"
  elif [ -d "$data_dir/uploads" ]; then
    mkdir -p "$out/uploads"
    copied=0
    # Only finished files (64 hex digits); a `.….tmp` is an upload still being written.
    for file in "$data_dir"/uploads/*; do
      name=$(basename "$file")
      [[ $name =~ ^[0-9a-f]{64}$ ]] || continue
      cp -p "$file" "$out/uploads/$name"
      copied=$((copied + 1))
    done
    echo "backup: $copied documents copied to $out/uploads"
  else
    echo "backup: WARNING: no $data_dir/uploads folder, so no documents were copied; if customers" \
      "have uploaded any, set DATA_DIR to the server's data folder and back up again" >&2
  fi
else
  pgdata="$data_dir/pgdata"
  [ -d "$pgdata" ] || fail "no PGlite database in $data_dir (set DATA_DIR, or DATABASE_URL for PostgreSQL)"
  running="Florin is running on $data_dir, or did not stop cleanly (pgdata/postmaster.pid exists): \
stop it first (SIGTERM: it checkpoints and closes the database); after a crash, start and stop it once"
  [ -e "$pgdata/postmaster.pid" ] && fail "$running"
  tar -C "$data_dir" -czf "$out/florin-data.tar.gz.partial" .
  # Started while the copy was being made: the copy may be torn.
  if [ -e "$pgdata/postmaster.pid" ]; then
    rm -f "$out/florin-data.tar.gz.partial"
    fail "$running"
  fi
  mv "$out/florin-data.tar.gz.partial" "$out/florin-data.tar.gz"
  echo "backup: data folder $data_dir saved to $out/florin-data.tar.gz"
fi
