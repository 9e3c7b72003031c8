import type { Kysely } from 'kysely';
import { ENQUIRY_TYPE_LABELS, OPENING_HOURS, ukDateTime, type EnquiryType } from '@florin/contracts';
import type { Config } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { Rendered } from '../notifications/catalogue.js';
import { renderMail, type Notifier, type QueuedMail } from '../notifications/service.js';
import type { EnquiryRow } from './repository.js';

/** Where each type goes (issue 12): support and general enquiries to support, the others to their teams. */
export type EnquiryMailboxes = Record<EnquiryType, string>;

export function enquiryMailboxesFrom(config: Config): EnquiryMailboxes {
  return {
    general: config.SUPPORT_EMAIL,
    support: config.SUPPORT_EMAIL,
    business: config.BUSINESS_EMAIL,
    press: config.PRESS_EMAIL,
  };
}

/**
 * The two mails of an enquiry. Neither goes to a customer as such, so they
 * stay out of the customer notification catalogue, as staff mails do
 * (admin/mail.ts). The acknowledgement carries nothing the visitor typed,
 * not even the name: anyone can enter any address in the form, and a mail
 * that repeated their words would let them send our mail with their text to
 * strangers.
 */
const ENQUIRY_MAILS = {
  forward: ({ enquiry, listUrl }: { enquiry: EnquiryRow; listUrl: string }) => ({
    subject: `${ENQUIRY_TYPE_LABELS[enquiry.type]} enquiry from ${enquiry.first_name} ${enquiry.last_name}`,
    paragraphs: [
      `A visitor sent this ${ENQUIRY_TYPE_LABELS[enquiry.type].toLowerCase()} enquiry from the Florin contact page. Reply to this email to answer them: the reply goes to ${enquiry.email}.`,
      `From: ${enquiry.first_name} ${enquiry.last_name} <${enquiry.email}>`,
      `Received: ${ukDateTime(enquiry.created_at)}`,
      'Message:',
      // The message's own paragraphs, so the HTML part keeps its line breaks as the text part does.
      ...enquiry.message.split(/\r?\n/).filter((line) => line.trim() !== ''),
    ],
    action: { label: 'See every enquiry in the back office', url: listUrl },
    footer: {
      text: `Florin Ltd · Sent to the ${ENQUIRY_TYPE_LABELS[enquiry.type].toLowerCase()} mailbox from the contact page (enquiry #${enquiry.id}).`,
    },
  }),
  acknowledgement: () => ({
    subject: 'We have received your enquiry',
    paragraphs: [
      'Hello,',
      `Thank you for contacting Florin. We have received your enquiry and will reply to this email address during ${OPENING_HOURS}.`,
      'If you did not send us an enquiry, someone may have entered your address by mistake, and you can ignore this email.',
    ],
    footer: {
      text: 'Florin Ltd · You receive this email because this address was entered in the enquiry form on the Florin contact page.',
    },
  }),
} satisfies Record<string, (data: never) => Rendered>;

export type EnquiryMailer = ReturnType<typeof createEnquiryMailer>;

/** An enquiry's two mails, written to the outbox with the enquiry. */
export type EnquiryMails = { forward: QueuedMail; acknowledgement: QueuedMail };

export function createEnquiryMailer(deps: {
  notifier: Pick<Notifier, 'queueMessage' | 'deliver'>;
  mailboxes: EnquiryMailboxes;
  publicUrl: string;
}) {
  const listUrl = `${deps.publicUrl}/admin/enquiries`;

  return {
    /**
     * In the enquiry's transaction: the forward to the type's mailbox, replying to the visitor, and
     * the acknowledgement to the visitor, a reply to which reaches the team the enquiry went to.
     */
    async queue(trx: Kysely<DB>, enquiry: EnquiryRow): Promise<EnquiryMails> {
      const forward = await deps.notifier.queueMessage(
        trx,
        {
          ...renderMail(deps.mailboxes[enquiry.type], ENQUIRY_MAILS.forward({ enquiry, listUrl })),
          replyTo: enquiry.email,
        },
        'enquiry_forward',
      );
      const acknowledgement = await deps.notifier.queueMessage(
        trx,
        {
          ...renderMail(enquiry.email, ENQUIRY_MAILS.acknowledgement()),
          replyTo: deps.mailboxes[enquiry.type],
        },
        'enquiry_acknowledgement',
      );
      return { forward, acknowledgement };
    },

    /**
     * After the commit. False when the forward was not sent now (logged): the back office lists the
     * enquiry as not forwarded, and the outbox's sender retries the mail.
     */
    async deliver(mails: EnquiryMails): Promise<boolean> {
      const isForwarded = await deps.notifier.deliver(mails.forward);
      await deps.notifier.deliver(mails.acknowledgement);
      return isForwarded;
    },
  };
}
