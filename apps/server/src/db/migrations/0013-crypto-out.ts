import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Crypto out (issue 8): whitelisted withdrawal addresses and sign-in IPs per
 * customer (removed rows are kept, marked deleted, for the record), crypto
 * withdrawals with their ledger hold and Travel Rule answers, each coin's
 * daily withdrawal limit and auto-approval switch, and the moment a
 * customer's sign-in security last changed (password, 2FA), from which
 * crypto withdrawals wait 24 hours. Amounts are minor units, NUMERIC(40,0).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    -- A password change or reset, or 2FA turned on or off: crypto withdrawals wait 24 hours from it.
    ALTER TABLE users ADD COLUMN security_changed_at timestamptz;

    -- Per customer and rolling 24 hours: withdrawals beyond it need a second staff approval.
    ALTER TABLE coins ADD COLUMN withdraw_daily_limit numeric(40, 0) CHECK (withdraw_daily_limit > 0);
    -- Withdrawals to an address whitelisted over 24 hours ago, within the daily limit, skip staff approval.
    ALTER TABLE coins ADD COLUMN auto_approve_whitelisted boolean NOT NULL DEFAULT false;
    UPDATE coins SET withdraw_daily_limit = CASE asset
      WHEN 'BTC' THEN 100000000              -- 1 BTC
      WHEN 'ETH' THEN 20000000000000000000   -- 20 ETH
      WHEN 'LTC' THEN 10000000000            -- 100 LTC
      WHEN 'BCH' THEN 5000000000             -- 50 BCH
      WHEN 'XRP' THEN 50000000000            -- 50,000 XRP
    END;

    CREATE TABLE whitelisted_wallets (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      asset text NOT NULL REFERENCES assets (code),
      address text NOT NULL,
      -- XRP only: the destination tag the customer gave, if any.
      tag bigint CHECK (tag BETWEEN 0 AND 4294967295),
      label text NOT NULL,
      -- Withdrawals to it are possible from this moment (24 hours after it was added).
      usable_from timestamptz NOT NULL,
      -- The e-mailed removal code was right: DELETE may remove it until this passes.
      removal_verified_until timestamptz,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (asset = 'XRP' OR tag IS NULL)
    );
    CREATE UNIQUE INDEX whitelisted_wallets_once
      ON whitelisted_wallets (user_id, asset, address, coalesce(tag, -1)) WHERE deleted_at IS NULL;
    CREATE INDEX whitelisted_wallets_user ON whitelisted_wallets (user_id, created_at) WHERE deleted_at IS NULL;

    CREATE TABLE whitelisted_ips (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      ip_address text NOT NULL,
      city text,
      country text,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX whitelisted_ips_once ON whitelisted_ips (user_id, ip_address) WHERE deleted_at IS NULL;

    CREATE TABLE crypto_withdrawals (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      asset text NOT NULL REFERENCES assets (code),
      -- What leaves the customer's balance (the hold); amount - fee reaches the address.
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      fee numeric(40, 0) NOT NULL CHECK (fee >= 0 AND fee < amount),
      address text NOT NULL,
      tag bigint CHECK (tag BETWEEN 0 AND 4294967295),
      whitelisted_wallet_id bigint REFERENCES whitelisted_wallets (id),
      -- Travel Rule: who owns the destination, their name when it is not the customer, and the exchange if one.
      beneficiary_type text NOT NULL CHECK (beneficiary_type IN ('self', 'person', 'business')),
      beneficiary_name text,
      destination_type text NOT NULL CHECK (destination_type IN ('private_wallet', 'exchange')),
      exchange_name text,
      -- awaiting_code: held, the e-mailed code not yet given; verified: code right, 2FA to come;
      -- pending: queued for staff; approved: may be sent; sent: broadcast, the hold posted;
      -- confirmed: seen confirmed on the chain; rejected, cancelled, expired: the hold voided.
      status text NOT NULL CHECK (status IN
        ('awaiting_code', 'verified', 'pending', 'approved', 'sent', 'confirmed', 'rejected', 'cancelled', 'expired')),
      hold_id bigint NOT NULL REFERENCES holds (id),
      journal_id bigint REFERENCES journals (id),
      -- Not verified by then: cancelled and the hold voided.
      verify_by timestamptz NOT NULL,
      verified_at timestamptz,
      requested_at timestamptz,
      needs_second_approval boolean NOT NULL DEFAULT false,
      auto_approved boolean NOT NULL DEFAULT false,
      approved_by integer REFERENCES staff (id),
      approved_at timestamptz,
      second_approved_by integer REFERENCES staff (id),
      second_approved_at timestamptz,
      sent_by integer REFERENCES staff (id),
      sent_at timestamptz,
      txid text,
      confirmed_by integer REFERENCES staff (id),
      confirmed_at timestamptz,
      rejected_by integer REFERENCES staff (id),
      rejected_at timestamptz,
      reject_reason text,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, idempotency_key),
      CHECK (beneficiary_type = 'self' OR beneficiary_name IS NOT NULL),
      CHECK (destination_type = 'private_wallet' OR exchange_name IS NOT NULL),
      CHECK (status NOT IN ('sent', 'confirmed') OR (journal_id IS NOT NULL AND txid IS NOT NULL)),
      CHECK (second_approved_by IS NULL OR second_approved_by <> approved_by)
    );
    CREATE INDEX crypto_withdrawals_user ON crypto_withdrawals (user_id, created_at);
    CREATE INDEX crypto_withdrawals_open ON crypto_withdrawals (created_at)
      WHERE status IN ('pending', 'approved', 'sent');
    CREATE INDEX crypto_withdrawals_unverified ON crypto_withdrawals (verify_by)
      WHERE status IN ('awaiting_code', 'verified');
  `,
  );
}
