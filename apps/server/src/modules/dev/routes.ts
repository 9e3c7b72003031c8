import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { AppError, AssetCodeSchema, amountSchema } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import type { UserEvents } from '../realtime/index.js';
import { keepDevRoutesToLoopback } from './loopback-only.js';

const DevFundSchema = z
  .object({
    email: z.string().email(),
    asset: AssetCodeSchema,
    amount: z.string(),
    key: z.string().min(8).max(100),
    /** out: takes the amount back to suspense, as the e2e stories empty an account to close it. */
    direction: z.enum(['in', 'out']).default('in'),
  })
  .superRefine((value, ctx) => {
    const amount = amountSchema(value.asset).safeParse(value.amount);
    if (!amount.success)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: amount.error.issues[0]!.message });
  });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The dev mailbox: what the embedded mail default "sent", newest first, as a
 * page and as JSON for the e2e fixtures. Never registered in production, and
 * answering only callers on this machine elsewhere (loopback-only.ts).
 */
export function registerDevRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<DB>; ledger: Ledger; userEvents: UserEvents },
): void {
  const { db } = deps;
  // Every /dev/ route, these and the other modules' helpers registered beside them.
  keepDevRoutesToLoopback(app);

  /**
   * Gives a customer money out of the house's suspense account (or takes it
   * back), as an adjustment journal through the ledger (balanced, idempotent by `key`):
   * how the e2e fixtures and a developer trying the product get balances in
   * assets whose real deposits do not exist yet. Never in production.
   */
  app.post(
    '/dev/ledger/fund',
    { config: { access: 'public' }, schema: { body: DevFundSchema } },
    async (request) => {
      const body = request.body as z.infer<typeof DevFundSchema>;
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', body.email.toLowerCase())
        .executeTakeFirst();
      if (!user) throw new AppError('NOT_FOUND');
      const amount = parseAmount(body.amount, body.asset) * (body.direction === 'out' ? -1n : 1n);
      const result = await deps.ledger.postJournal(db, {
        idempotencyKey: `dev-fund:${body.key}`,
        kind: 'adjustment',
        metadata: { note: 'dev fund' },
        postings: [
          { account: { asset: body.asset, kind: 'suspense' }, amount: -amount },
          { account: { asset: body.asset, kind: 'available', ownerUserId: String(user.id) }, amount },
        ],
      });
      deps.userEvents.moneyMoved([user.id]);
      return { journal_id: result.journalId, replayed: result.replayed };
    },
  );

  const recent = (to?: string) => {
    let query = db
      .selectFrom('dev_mailbox')
      .select(['id', 'to', 'reply_to', 'subject', 'text', 'html', 'created_at'])
      .orderBy('id', 'desc')
      .limit(200);
    if (to) query = query.where('to', '=', to.toLowerCase());
    return query.execute();
  };

  /**
   * Moves the customer's bank details 25 hours into the past, so the 24-hour
   * wait after a change (DECISIONS.md) is over: the e2e stories cannot wait a
   * day on the server's clock. With `ends_in_seconds`, the wait ends that many
   * seconds from now instead (a page seen while it ends). Never in production.
   */
  app.post(
    '/dev/fiat/bank-accounts/pass-wait',
    {
      config: { access: 'public' },
      schema: {
        body: z.strictObject({
          email: z.string().email(),
          ends_in_seconds: z.number().int().min(1).max(3_600).optional(),
        }),
      },
    },
    async (request) => {
      const { email, ends_in_seconds } = request.body as { email: string; ends_in_seconds?: number };
      const pastMs =
        ends_in_seconds === undefined ? 25 * 3_600_000 : 24 * 3_600_000 - ends_in_seconds * 1_000;
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      if (!user) throw new AppError('NOT_FOUND');
      const result = await db
        .updateTable('bank_accounts')
        .set({ details_changed_at: new Date(Date.now() - pastMs) })
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      return { updated: Number(result.numUpdatedRows) };
    },
  );

  /**
   * Ends the customer's security waits (issue 8): their last password or 2FA
   * change and any staff 2FA reset move 25 hours back, and their whitelisted
   * addresses become usable a minute ago, so the e2e stories need not wait a
   * day for crypto withdrawals. Never in production.
   */
  app.post(
    '/dev/security/pass-waits',
    { config: { access: 'public' }, schema: { body: z.strictObject({ email: z.string().email() }) } },
    async (request) => {
      const { email } = request.body as { email: string };
      return db.transaction().execute(async (trx) => {
        const user = await trx
          .updateTable('users')
          .set({
            security_changed_at: sql<Date | null>`security_changed_at - interval '25 hours'`,
            two_factor_reset_at: sql<Date | null>`two_factor_reset_at - interval '25 hours'`,
          })
          .where(sql<string>`lower(email)`, '=', email.toLowerCase())
          .returning('id')
          .executeTakeFirst();
        if (!user) throw new AppError('NOT_FOUND');
        const wallets = await trx
          .updateTable('whitelisted_wallets')
          .set({ usable_from: sql<Date>`now() - interval '1 minute'` })
          .where('user_id', '=', user.id)
          .where('deleted_at', 'is', null)
          .where('usable_from', '>', sql<Date>`now() - interval '1 minute'`)
          .executeTakeFirst();
        return { wallets: Number(wallets.numUpdatedRows) };
      });
    },
  );

  /**
   * Ends the first-investment journey's waits (issue 13): a failed
   * assessment's retake wait and the 24-hour cooling-off move 25 hours back,
   * as if the customer came back a day later. Never in production.
   */
  app.post(
    '/dev/investor/pass-waits',
    { config: { access: 'public' }, schema: { body: z.strictObject({ email: z.string().email() }) } },
    async (request) => {
      const { email } = request.body as { email: string };
      const user = await db
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
      if (!user) throw new AppError('NOT_FOUND');
      const result = await db
        .updateTable('investor_profiles')
        .set({
          retake_at: sql<Date | null>`retake_at - interval '25 hours'`,
          cooling_off_ends_at: sql<Date | null>`cooling_off_ends_at - interval '25 hours'`,
        })
        .where('user_id', '=', user.id)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      return { updated: Number(result.numUpdatedRows) };
    },
  );

  app.get<{ Querystring: { to?: string } }>(
    '/dev/mailbox.json',
    { config: { access: 'public' } },
    async (request) => (await recent(request.query.to)).map(({ id: _id, ...message }) => message),
  );

  app.get('/dev/mailbox', { config: { access: 'public' } }, async (_request, reply) => {
    const messages = await recent();
    const items = messages
      .map(
        (message) =>
          `<article><h2>${escapeHtml(message.subject)}</h2><p><b>To:</b> ${escapeHtml(message.to)}${message.reply_to ? ` · <b>Reply-To:</b> ${escapeHtml(message.reply_to)}` : ''} · ${message.created_at.toISOString()}</p><pre>${escapeHtml(message.text)}</pre></article>`,
      )
      .join('<hr>');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><title>Dev mailbox — Florin</title><body style="font-family:sans-serif;max-width:800px;margin:auto;padding:16px"><h1>Dev mailbox</h1><p>Mail Florin sent while no SMTP_URL is set, newest first.</p>${items || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
}
