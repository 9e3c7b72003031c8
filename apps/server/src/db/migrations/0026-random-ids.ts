import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * The tables whose ids a customer sees or sends (issue 15: object ids are
 * random and not guessable). A sequence number in a path told anyone how many
 * customers, withdrawals or orders Florin has, and which number to try next.
 * Staff-only records (staff, audit log, promo codes, sanctions lists,
 * enquiries, the newsletter) keep their sequence numbers; api_tokens,
 * trade_quotes and the investor tables already have random text ids.
 */
export const RANDOM_ID_TABLES = [
  'users',
  'notifications',
  'companies',
  'company_directors',
  'kyc_documents',
  'bank_accounts',
  'fiat_deposits',
  'fiat_withdrawals',
  'deposit_addresses',
  'crypto_deposits',
  'whitelisted_wallets',
  'whitelisted_ips',
  'crypto_withdrawals',
  'orders',
  'trades',
  'platform_upgrades',
  'term_deposits',
  'auto_trades',
  'auto_trade_conversions',
  'referral_commissions',
  'affiliate_claims',
  'promo_redemptions',
] as const;

/**
 * Each of those tables gets an id drawn from the database's cryptographic
 * generator (31 bits, so it still fits an integer column and a JS number),
 * redrawn while taken, and a `seq` column that keeps the order rows were
 * written in: lists, queues and price-time priority order by `seq`, never by
 * `id`. Rows already there keep their ids (every reference to them stays
 * good) and their `seq` is that id, so the order across the change holds.
 * An insert that names its id (a restore) keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    -- The first 8 hex digits of a version 4 UUID are all random; 0 is left to the caller to refuse.
    CREATE FUNCTION random_object_id() RETURNS integer LANGUAGE sql VOLATILE AS $$
      SELECT ('x' || left(gen_random_uuid()::text, 8))::bit(32)::integer & 2147483647
    $$;

    -- One trigger function per table, so the taken check is a plain query whose plan plpgsql keeps.
    DO $$
    DECLARE
      t text;
      next_seq bigint;
      old_sequence text;
    BEGIN
      FOREACH t IN ARRAY ARRAY[${RANDOM_ID_TABLES.map((table) => `'${table}'`).join(', ')}] LOOP
        -- An identity column drops its sequence with the identity; a serial one leaves it behind.
        old_sequence := pg_get_serial_sequence(t, 'id');
        EXECUTE format('ALTER TABLE %I ALTER COLUMN id DROP IDENTITY IF EXISTS', t);
        EXECUTE format('ALTER TABLE %I ALTER COLUMN id DROP DEFAULT', t);
        EXECUTE format('DROP SEQUENCE IF EXISTS %s', old_sequence);
        EXECUTE format('ALTER TABLE %I ADD COLUMN seq bigint', t);
        EXECUTE format('UPDATE %I SET seq = id', t);
        EXECUTE format('SELECT coalesce(max(id), 0) + 1 FROM %I', t) INTO next_seq;
        EXECUTE format('CREATE SEQUENCE %I START WITH %s', t || '_seq_seq', next_seq);
        EXECUTE format('ALTER SEQUENCE %I OWNED BY %I.seq', t || '_seq_seq', t);
        EXECUTE format(
          'ALTER TABLE %I ALTER COLUMN seq SET DEFAULT nextval(%L), ALTER COLUMN seq SET NOT NULL',
          t, t || '_seq_seq');
        EXECUTE format('CREATE UNIQUE INDEX %I ON %I (seq)', t || '_seq_key', t);
        EXECUTE format(
          'CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L',
          t || '_random_id',
          format(
            'BEGIN
               IF NEW.id IS NULL THEN
                 LOOP
                   NEW.id := random_object_id();
                   EXIT WHEN NEW.id > 0 AND NOT EXISTS (SELECT 1 FROM %I WHERE id = NEW.id);
                 END LOOP;
               END IF;
               RETURN NEW;
             END', t));
        EXECUTE format(
          'CREATE TRIGGER random_id BEFORE INSERT ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
          t, t || '_random_id');
      END LOOP;
    END $$;
    `,
  );
}
