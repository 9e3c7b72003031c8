import { sql, type Kysely } from 'kysely';
import { formatAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { Posting } from '../../ledger/index.js';
import type { QueuedMail } from '../notifications/service.js';
import type { DepositRow } from './repository.js';
import {
  asAsset,
  availableAccount,
  maturityKey,
  termAccount,
  type TermDepositServiceDeps,
} from './shared.js';

/** How often the leading instance looks for matured deposits. */
export const MATURITY_SCAN_INTERVAL_MS = 5_000;
/** Deposits one scan pays at most; the next scan continues. */
const MATURITY_BATCH = 200;

/** Paying back deposits that have matured, with their interest. */
export function createMaturity(deps: TermDepositServiceDeps) {
  const { db, repository, ledger, notifier } = deps;

  /** Pays one deposit back and writes its mail with the payment; null when it is not due (any more). */
  async function payOne(id: string, now: Date): Promise<{ mail: QueuedMail | undefined } | null> {
    return db.transaction().execute(async (trx) => {
      const deposit = await repository.lockDueDeposit(trx, id, now);
      if (!deposit) return null;
      const amount = BigInt(deposit.amount);
      const interest = BigInt(deposit.interest);
      const postings: Posting[] = [
        { account: termAccount(deposit), amount: -amount },
        { account: availableAccount(deposit.user_id, deposit.asset), amount: amount + interest },
      ];
      if (interest > 0n)
        postings.push({
          account: { asset: asAsset(deposit.asset), kind: 'interest_expense' },
          amount: -interest,
        });
      // The key makes the payment once even if an earlier run posted it and died before marking the row.
      await ledger.postJournal(trx, {
        idempotencyKey: maturityKey(deposit.id),
        kind: 'term_deposit_maturity',
        reference: `term_deposit:${deposit.id}`,
        metadata: { term_deposit_id: deposit.id, interest: interest.toString() },
        postings,
      });
      await repository.markExpired(trx, deposit, now);
      return { mail: await queuePaidMail(trx, deposit) };
    });
  }

  async function queuePaidMail(trx: Kysely<DB>, deposit: DepositRow): Promise<QueuedMail | undefined> {
    const customer = await repository.findCustomer(deposit.user_id, trx);
    if (!customer) return undefined;
    const asset = asAsset(deposit.asset);
    const amount = BigInt(deposit.amount);
    const interest = BigInt(deposit.interest);
    return notifier.queue(trx, customer, 'term_deposit_matured', {
      firstName: customer.first_name,
      coin: asset,
      amount: formatAmount(amount, asset),
      interest: formatAmount(interest, asset),
      total: formatAmount(amount + interest, asset),
      url: `${deps.publicUrl}/user/term-deposit`,
    });
  }

  return {
    /**
     * Pays back every deposit due by `now`: each in its own transaction that
     * locks the row (another instance skips it), posts the maturity journal
     * under the deposit's key, marks the row and writes the mail, which goes after the commit.
     * Returns how many this call paid.
     */
    async payMatured(now: Date = new Date()): Promise<number> {
      const ids = await repository.dueIds(now, MATURITY_BATCH);
      let paid = 0;
      for (const id of ids) {
        const payment = await payOne(id, now);
        if (!payment) continue;
        paid += 1;
        await notifier.deliver(payment.mail);
      }
      return paid;
    },

    /** Dev and e2e only: makes a customer's live deposits due now and pays them. */
    async matureNowForTesting(email: string): Promise<number> {
      await sql`
        UPDATE term_deposits SET matures_at = now() - interval '1 second'
        WHERE status = 'live' AND user_id IN (SELECT id FROM users WHERE email = ${email.toLowerCase()})`.execute(
        db,
      );
      return this.payMatured(new Date());
    },
  };
}
