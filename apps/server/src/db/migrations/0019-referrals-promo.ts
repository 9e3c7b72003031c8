import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * Referrals and promo codes (issue 10; DECISIONS.md "Referrals, promo codes
 * and the incentives policy").
 *
 * - incentives_policy: one row; who may earn commission or use promo benefits
 *   and the commission rate (percent of the referred customer's fee).
 * - referral_partners: the partner switch (has_custom_referral), slug and logo
 *   staff set; slugs unique.
 * - referral_commissions: one row per referred customer's trade, unique on the
 *   trade, so the accrual job credits each trade at most once; journal_id is
 *   null when nothing was due (policy excluded the referrer or the amount
 *   rounded to 0).
 * - affiliate_claims: a payout request; its hold on the affiliate account is
 *   Waiting to be Paid, paid posts it to the bank, rejected releases it.
 * - promo_codes and promo_redemptions: a fee discount for duration_days from
 *   applying; a customer applies one code once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE incentives_policy (
      id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      policy text NOT NULL DEFAULT 'corporate_or_outside_uk'
        CHECK (policy IN ('corporate_or_outside_uk', 'everyone', 'nobody')),
      commission_percent text NOT NULL DEFAULT '20',
      updated_at timestamptz
    );
    INSERT INTO incentives_policy (id) VALUES (1);

    CREATE TABLE referral_partners (
      user_id integer PRIMARY KEY REFERENCES users (id),
      has_custom_referral boolean NOT NULL DEFAULT false,
      slug text UNIQUE CHECK (slug ~ '^[a-z0-9-]{3,32}$'),
      logo_url text,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE referral_commissions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      trade_id bigint NOT NULL UNIQUE REFERENCES trades (id),
      referrer_user_id integer NOT NULL REFERENCES users (id),
      referred_user_id integer NOT NULL REFERENCES users (id),
      -- The trade's fee in pence (converted at the trade's gbp_value ratio when not GBP).
      fee_gbp numeric(40, 0) NOT NULL CHECK (fee_gbp >= 0),
      commission_percent text NOT NULL,
      amount numeric(40, 0) NOT NULL CHECK (amount >= 0),
      -- Why nothing was credited: 'policy' or 'zero'; null when credited.
      skipped text CHECK (skipped IN ('policy', 'zero')),
      journal_id bigint REFERENCES journals (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((journal_id IS NULL) = (skipped IS NOT NULL)),
      CHECK (skipped IS NULL OR amount = 0)
    );
    CREATE INDEX referral_commissions_referrer ON referral_commissions (referrer_user_id, id DESC);

    CREATE TABLE affiliate_claims (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      amount numeric(40, 0) NOT NULL CHECK (amount > 0),
      status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'paid', 'rejected')),
      hold_id bigint NOT NULL UNIQUE REFERENCES holds (id),
      bank_account_id integer,
      name_of_account text,
      sort_code text,
      account_number text,
      journal_id bigint REFERENCES journals (id),
      rejected_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      paid_at timestamptz,
      rejected_at timestamptz,
      UNIQUE (user_id, idempotency_key),
      CHECK ((status = 'paid') = (journal_id IS NOT NULL))
    );
    CREATE INDEX affiliate_claims_user ON affiliate_claims (user_id, id DESC);
    CREATE INDEX affiliate_claims_status ON affiliate_claims (status, id);

    CREATE TABLE promo_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      -- Stored upper-case; customers type it in any case.
      code text NOT NULL UNIQUE CHECK (code = upper(code)),
      discount_percent text NOT NULL,
      duration_days integer NOT NULL CHECK (duration_days > 0),
      valid_until date,
      is_active boolean NOT NULL DEFAULT true,
      created_by integer,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE promo_redemptions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (id),
      promo_code_id bigint NOT NULL REFERENCES promo_codes (id),
      discount_percent text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      ends_at timestamptz NOT NULL,
      UNIQUE (user_id, promo_code_id)
    );
    CREATE INDEX promo_redemptions_user ON promo_redemptions (user_id, ends_at DESC);
    `,
  );
}
