import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The dev mailbox: what the embedded mail default "sent", newest first, as a
 * page and as JSON for the e2e fixtures. Never registered in production.
 */
export function registerDevRoutes(app: FastifyInstance, db: Kysely<DB>): void {
  const recent = (to?: string) => {
    let query = db
      .selectFrom('dev_mailbox')
      .select(['id', 'to', 'subject', 'text', 'html', 'created_at'])
      .orderBy('id', 'desc')
      .limit(200);
    if (to) query = query.where('to', '=', to.toLowerCase());
    return query.execute();
  };

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
          `<article><h2>${escapeHtml(message.subject)}</h2><p><b>To:</b> ${escapeHtml(message.to)} · ${message.created_at.toISOString()}</p><pre>${escapeHtml(message.text)}</pre></article>`,
      )
      .join('<hr>');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><title>Dev mailbox — Florin</title><body style="font-family:sans-serif;max-width:800px;margin:auto;padding:16px"><h1>Dev mailbox</h1><p>Mail Florin sent while no SMTP_URL is set, newest first.</p>${items || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
}
