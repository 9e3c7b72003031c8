import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Cached reads are dropped on every instance when their rows change (decision 133): these triggers
 * NOTIFY on florin_cache (db/cached-read.ts) in the writing transaction, so whatever path makes the
 * change, every instance hears it at commit. Sessions: per customer, only for what a session's
 * lookup answers from (revoked, expiry, CSRF token, the account's access end and termination).
 * last_seen_at only notifies when set back (ops, tests): the touches that move it on do not, as a
 * row read earlier looks idle sooner, never later, and is then read again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE FUNCTION cache_notify_table() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('florin_cache', TG_ARGV[0]);
      RETURN NULL;
    END $$;

    CREATE FUNCTION cache_notify_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('florin_cache', 'session:' || OLD.id);
      ELSE
        PERFORM pg_notify('florin_cache', 'session:' || OLD.user_id);
      END IF;
      RETURN NULL;
    END $$;

    CREATE TRIGGER coins_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON coins
      FOR EACH STATEMENT EXECUTE FUNCTION cache_notify_table('coins');
    CREATE TRIGGER currencies_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON currencies
      FOR EACH STATEMENT EXECUTE FUNCTION cache_notify_table('currencies');
    CREATE TRIGGER fee_schedule_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fee_schedule
      FOR EACH STATEMENT EXECUTE FUNCTION cache_notify_table('fee_schedule');

    CREATE TRIGGER sessions_cache_notify_change AFTER UPDATE ON sessions FOR EACH ROW
      WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
        OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.csrf_token IS DISTINCT FROM NEW.csrf_token
        OR OLD.user_id IS DISTINCT FROM NEW.user_id
        OR NEW.last_seen_at < OLD.last_seen_at)
      EXECUTE FUNCTION cache_notify_sessions();
    CREATE TRIGGER sessions_cache_notify_delete AFTER DELETE ON sessions FOR EACH ROW
      EXECUTE FUNCTION cache_notify_sessions();
    CREATE TRIGGER users_cache_notify_change AFTER UPDATE ON users FOR EACH ROW
      WHEN (OLD.access_ends_at IS DISTINCT FROM NEW.access_ends_at
        OR OLD.terminated_at IS DISTINCT FROM NEW.terminated_at)
      EXECUTE FUNCTION cache_notify_sessions();
    CREATE TRIGGER users_cache_notify_delete AFTER DELETE ON users FOR EACH ROW
      EXECUTE FUNCTION cache_notify_sessions();
    `,
  );
}
