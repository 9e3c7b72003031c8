import type { MailMessage } from '../../adapters/mail/mailer.js';
import type { Rendered } from './catalogue.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const FOOTER = 'Florin Ltd · You receive this email because you have a Florin account.';

/** Every e-mail has a text and an HTML part, carries the product's name and says why the reader gets it. */
export function renderMail(to: string, rendered: Rendered): MailMessage {
  const footer = rendered.footer?.text ?? FOOTER;
  const unsubscribeUrl = rendered.footer?.unsubscribeUrl;
  const text = [
    'Florin',
    '',
    ...rendered.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(rendered.action ? [`${rendered.action.label}: ${rendered.action.url}`, ''] : []),
    '—',
    footer,
    ...(unsubscribeUrl ? [`Unsubscribe: ${unsubscribeUrl}`] : []),
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px;color:#0b7285">Florin</h1>
${rendered.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${rendered.action ? `<p><a href="${escapeHtml(rendered.action.url)}" style="display:inline-block;background:#0b7285;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(rendered.action.label)}</a></p><p style="font-size:12px;color:#555">Or paste this address into your browser: ${escapeHtml(rendered.action.url)}</p>` : ''}
<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>
${unsubscribeUrl ? `<p style="font-size:12px;color:#555"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#555">Unsubscribe</a></p>` : ''}
</body></html>`;
  return { to, subject: `${rendered.subject} — Florin`, text, html };
}
