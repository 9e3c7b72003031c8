import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

/**
 * One journal in one statement. The ledger module used to send eight
 * statements per journal (claim the key, find accounts, lock, update, house
 * deltas, entries, begin, commit); as a function the database runs them with
 * cached plans and the client makes one round trip, inside the caller's
 * transaction or in its own.
 *
 * Errors carry their own SQLSTATE so the ledger can name them:
 *   FL001 a customer account would go below zero (INSUFFICIENT_FUNDS)
 *   FL002 the idempotency key was used with another request (IDEMPOTENCY_CONFLICT)
 *   FL003 a posting names an account or asset that does not exist
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE FUNCTION ledger_post_journal(
      p_key text,
      p_hash text,
      p_kind text,
      p_reference text,
      p_hold_id bigint,
      p_metadata jsonb,
      p_assets text[],
      p_kinds text[],
      p_owners integer[],
      p_refs text[],
      p_amounts numeric[],
      -- a pending hold's account whose held amount this journal spends (postHold), or null
      p_release_account bigint,
      p_release numeric
    ) RETURNS TABLE (journal_id bigint, replayed boolean)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_journal bigint;
      v_hash text;
      v_ids bigint[] := ARRAY[]::bigint[];
      v_id bigint;
      v_row record;
      i integer;
    BEGIN
      -- Claim the key first: a concurrent insert of the same key waits here
      -- until the other commits or rolls back.
      INSERT INTO journals (idempotency_key, request_hash, kind, reference, hold_id, metadata)
      VALUES (p_key, p_hash, p_kind, p_reference, p_hold_id, coalesce(p_metadata, '{}'::jsonb))
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id INTO v_journal;
      IF v_journal IS NULL THEN
        SELECT j.id, j.request_hash INTO v_journal, v_hash FROM journals j WHERE j.idempotency_key = p_key;
        IF v_hash IS DISTINCT FROM p_hash THEN
          RAISE EXCEPTION 'idempotency key % was used with another request', p_key USING ERRCODE = 'FL002';
        END IF;
        RETURN QUERY SELECT v_journal, true;
        RETURN;
      END IF;

      -- Find each account; a customer's is created the first time money moves for it.
      FOR i IN 1 .. coalesce(array_length(p_amounts, 1), 0) LOOP
        -- Two spellings of one look-up: IS NOT DISTINCT FROM would not use the index.
        IF p_owners[i] IS NULL THEN
          SELECT a.id INTO v_id FROM accounts a
          WHERE a.asset = p_assets[i] AND a.kind = p_kinds[i] AND a.owner_user_id IS NULL AND a.reference = '';
          IF v_id IS NULL THEN
            RAISE EXCEPTION 'no house account % %', p_assets[i], p_kinds[i] USING ERRCODE = 'FL003';
          END IF;
        ELSE
          SELECT a.id INTO v_id FROM accounts a
          WHERE a.asset = p_assets[i] AND a.kind = p_kinds[i] AND a.owner_user_id = p_owners[i]
            AND a.reference = p_refs[i];
        END IF;
        IF v_id IS NULL THEN
          INSERT INTO accounts (asset, kind, owner_user_id, reference, is_house, non_negative)
          VALUES (p_assets[i], p_kinds[i], p_owners[i], p_refs[i], false, true)
          ON CONFLICT ON CONSTRAINT accounts_identity DO NOTHING
          RETURNING id INTO v_id;
          IF v_id IS NULL THEN
            SELECT a.id INTO v_id FROM accounts a
            WHERE a.asset = p_assets[i] AND a.kind = p_kinds[i] AND a.reference = p_refs[i]
              AND a.owner_user_id = p_owners[i];
          END IF;
        END IF;
        v_ids := v_ids || v_id;
      END LOOP;

      -- Customer accounts: updated in id order (the order is the lock order, so
      -- journals never deadlock), each refusing to go below zero.
      FOR v_row IN
        SELECT t.id, sum(t.amount) AS delta,
               CASE WHEN t.id = p_release_account THEN coalesce(p_release, 0) ELSE 0 END AS release
        FROM unnest(v_ids, p_amounts) AS t (id, amount)
        JOIN accounts a ON a.id = t.id AND NOT a.is_house
        GROUP BY t.id
        ORDER BY t.id
      LOOP
        UPDATE accounts a
        SET posted = a.posted + v_row.delta, held = a.held - v_row.release
        WHERE a.id = v_row.id
          AND a.held - v_row.release >= 0
          AND (NOT a.non_negative OR a.posted + v_row.delta - (a.held - v_row.release) >= 0);
        IF NOT FOUND THEN
          RAISE EXCEPTION 'account % would go below zero', v_row.id USING ERRCODE = 'FL001';
        END IF;
      END LOOP;

      -- House accounts are never locked: their postings wait in house_balance_deltas.
      INSERT INTO house_balance_deltas (account_id, amount)
      SELECT t.id, sum(t.amount)
      FROM unnest(v_ids, p_amounts) AS t (id, amount)
      JOIN accounts a ON a.id = t.id AND a.is_house
      GROUP BY t.id
      HAVING sum(t.amount) <> 0;

      -- Entries, each with the customer account's balance after it (walking
      -- back from the balance just written); null on house accounts.
      INSERT INTO entries (journal_id, account_id, asset, amount, balance_after)
      SELECT v_journal, t.id, a.asset, t.amount,
             CASE WHEN a.is_house THEN NULL
                  ELSE a.posted - coalesce(sum(t.amount) OVER (
                         PARTITION BY t.id ORDER BY t.ord DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
             END
      FROM unnest(v_ids, p_amounts) WITH ORDINALITY AS t (id, amount, ord)
      JOIN accounts a ON a.id = t.id
      ORDER BY t.ord;

      RETURN QUERY SELECT v_journal, false;
    END
    $$;
  `,
  );
}
