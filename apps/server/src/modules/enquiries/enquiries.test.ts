import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENQUIRY_TEXTS, TEXT_RULE_TEXTS, ukDateTime, type Enquiry, type Page } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createBrowser, mailTo } from '../../test/browser.js';
import { testClock } from '../../test/clock.js';
import { TOO_MANY_ATTEMPTS } from '../../test/rate-limited.js';
import { newCustomer } from '../kyc/kyc.test-kit.js';
import { retryDelayMs } from '../notifications/outbox.js';
import { createNotifier } from '../notifications/service.js';

const MAILBOXES = {
  SUPPORT_EMAIL: 'help@florin.test',
  BUSINESS_EMAIL: 'partners@florin.test',
  PRESS_EMAIL: 'media@florin.test',
};

let t: TestApp;
let support: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp({ env: MAILBOXES });
  support = await signedInStaff(t.app, t.database.db, 'support');
});
afterAll(async () => {
  await t.close();
});

let visitors = 0;
/** A visitor's enquiry with an address of its own, so the per-address limit never joins two tests. */
function enquiry(overrides: Record<string, unknown> = {}) {
  visitors += 1;
  return {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: `visitor${visitors}.${Date.now()}@example.com`,
    message: 'Do you offer accounts for charities?\nWe hold some BTC donations.',
    ...overrides,
  };
}

async function countEnquiries(): Promise<number> {
  const row = await t.database.db
    .selectFrom('enquiries')
    .select((eb) => eb.fn.countAll<string>().as('rows'))
    .executeTakeFirstOrThrow();
  return Number(row.rows); // a row count (PostgreSQL's bigint arrives as text), not money
}

async function countMail(): Promise<number> {
  const row = await t.database.db
    .selectFrom('dev_mailbox')
    .select((eb) => eb.fn.countAll<string>().as('rows'))
    .executeTakeFirstOrThrow();
  return Number(row.rows); // a row count (PostgreSQL's bigint arrives as text), not money
}

describe('POST /api/v1/inquire/{type}', () => {
  it('keeps the enquiry, forwards it to the mailbox of its type replying to the visitor, and acknowledges it', async () => {
    const visitor = createBrowser(t.app);
    const cases = [
      ['general', MAILBOXES.SUPPORT_EMAIL, 'General enquiry'],
      ['support', MAILBOXES.SUPPORT_EMAIL, 'Support enquiry'],
      ['business', MAILBOXES.BUSINESS_EMAIL, 'Business development enquiry'],
      ['press', MAILBOXES.PRESS_EMAIL, 'Press enquiry'],
    ] as const;
    for (const [type, mailbox, subject] of cases) {
      const body = enquiry({ first_name: '  Grace ', email: `  ${type}.Visitor${Date.now()}@Example.com ` });
      const email = body.email.trim().toLowerCase();
      const response = await visitor.post(`/api/v1/inquire/${type}`, body);
      expect(response.statusCode, type).toBe(200);
      expect(response.json()).toEqual({ message: ENQUIRY_TEXTS.sent });

      const stored = await t.database.db
        .selectFrom('enquiries')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({
        type,
        first_name: 'Grace',
        last_name: 'Hopper',
        message: body.message,
      });
      expect(stored.forwarded_at).toBeInstanceOf(Date);

      const forwarded = (await mailTo(t.database.db, mailbox)).find((mail) =>
        mail.subject.startsWith(`${subject} from Grace Hopper`),
      );
      expect(forwarded?.reply_to, type).toBe(email);
      expect(forwarded?.text).toContain(`From: Grace Hopper <${email}>`);
      expect(forwarded?.text).toContain(`Received: ${ukDateTime(stored.created_at)}`);
      expect(forwarded?.text).toContain('Do you offer accounts for charities?');
      expect(forwarded?.text).toContain('We hold some BTC donations.');
      expect(forwarded?.text).toContain('http://localhost:8080/admin/enquiries');

      const acknowledgements = await mailTo(t.database.db, email);
      expect(acknowledgements.map((mail) => mail.subject)).toEqual([
        'We have received your enquiry — Florin',
      ]);
      // Replies reach the team; nothing the visitor typed is repeated to the address they gave.
      expect(acknowledgements[0]?.reply_to).toBe(mailbox);
      expect(acknowledgements[0]?.text).not.toContain('Grace');
      expect(acknowledgements[0]?.text).not.toContain('charities');
    }
  });

  it('works for a signed-in customer too', async () => {
    const customer = await newCustomer(t);
    const response = await customer.post('/api/v1/inquire/support', enquiry());
    expect(response.statusCode).toBe(200);
  });

  it('refuses bad input with the field and its message, and stores and mails nothing', async () => {
    const visitor = createBrowser(t.app);
    const [enquiriesBefore, mailBefore] = [await countEnquiries(), await countMail()];
    const bad = [
      [{}, 'first_name', ENQUIRY_TEXTS.firstNameRequired],
      [enquiry({ first_name: '   ' }), 'first_name', ENQUIRY_TEXTS.firstNameRequired],
      [enquiry({ last_name: '' }), 'last_name', ENQUIRY_TEXTS.lastNameRequired],
      [enquiry({ last_name: 'x'.repeat(101) }), 'last_name', ENQUIRY_TEXTS.lastNameTooLong],
      [enquiry({ first_name: 'Grace\nBcc: everyone@example.com' }), 'first_name', ENQUIRY_TEXTS.nameInvalid],
      [enquiry({ email: '' }), 'email', ENQUIRY_TEXTS.emailRequired],
      [enquiry({ email: 'grace@' }), 'email', ENQUIRY_TEXTS.emailInvalid],
      [enquiry({ email: 42 }), 'email', ENQUIRY_TEXTS.emailRequired],
      [enquiry({ message: ' \n ' }), 'message', ENQUIRY_TEXTS.messageRequired],
      [enquiry({ message: 'x'.repeat(2001) }), 'message', ENQUIRY_TEXTS.messageTooLong],
      // The forwarded mail's subject and the back office would show these reversed or blank.
      [enquiry({ first_name: 'Urgent\u202Ecod.exe' }), 'first_name', ENQUIRY_TEXTS.nameInvalid],
      [enquiry({ last_name: '\u200B\u200B' }), 'last_name', ENQUIRY_TEXTS.lastNameRequired],
      [enquiry({ message: 'Pay \u202E0001£ now' }), 'message', TEXT_RULE_TEXTS.textInvalid],
      [enquiry({ message: '\u200D\u2060 ' }), 'message', ENQUIRY_TEXTS.messageRequired],
      [enquiry({ phone: '0123' }), 'phone', 'This field is not allowed.'],
    ] as const;
    for (const [body, field, message] of bad) {
      const response = await visitor.post('/api/v1/inquire/general', body);
      expect(response.statusCode, field).toBe(422);
      expect(response.json<{ errors: Record<string, string[]> }>().errors[field], field).toContain(message);
    }
    // The longest allowed values pass.
    const longest = await visitor.post(
      '/api/v1/inquire/general',
      enquiry({ first_name: 'x'.repeat(100), message: 'y'.repeat(2000) }),
    );
    expect(longest.statusCode).toBe(200);
    expect(await countEnquiries()).toBe(enquiriesBefore + 1);
    expect(await countMail()).toBe(mailBefore + 2);
  });

  it('answers an unknown type with 404 and the types there are, and stores nothing', async () => {
    const before = await countEnquiries();
    const response = await createBrowser(t.app).post('/api/v1/inquire/sales', enquiry());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: ENQUIRY_TEXTS.unknownType });
    expect(ENQUIRY_TEXTS.unknownType).toContain('general, business, press or support');
    expect(await countEnquiries()).toBe(before);
  });

  it('takes five enquiries an hour from one IP address, then 429 without storing or mailing', async () => {
    const visitor = createBrowser(t.app);
    for (let sent = 0; sent < 5; sent += 1)
      expect((await visitor.post('/api/v1/inquire/press', enquiry())).statusCode).toBe(200);
    const [enquiriesBefore, mailBefore] = [await countEnquiries(), await countMail()];
    const refused = await visitor.post('/api/v1/inquire/press', enquiry());
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(TOO_MANY_ATTEMPTS) as string,
    });
    expect(await countEnquiries()).toBe(enquiriesBefore);
    expect(await countMail()).toBe(mailBefore);
    // Someone else is not held up by it.
    expect((await createBrowser(t.app).post('/api/v1/inquire/press', enquiry())).statusCode).toBe(200);
  });

  it('takes five enquiries an hour for one e-mail address, from however many IP addresses', async () => {
    const email = `flooded.${Date.now()}@example.com`;
    for (let sent = 0; sent < 5; sent += 1)
      expect(
        (await createBrowser(t.app).post('/api/v1/inquire/general', enquiry({ email }))).statusCode,
      ).toBe(200);
    const refused = await createBrowser(t.app).post('/api/v1/inquire/general', enquiry({ email }));
    expect(refused.statusCode).toBe(429);
    expect(await mailTo(t.database.db, email)).toHaveLength(5);
  });
});

describe('GET /api/admin/enquiries', () => {
  it('lists enquiries for support newest first, a page at a time, filtered by type', async () => {
    // More than a page of older ones, whatever the other tests left.
    await t.database.db
      .insertInto('enquiries')
      .values(
        Array.from({ length: 30 }, () => ({ type: 'general' as const, ...enquiry({ last_name: 'Filler' }) })),
      )
      .execute();
    const visitor = createBrowser(t.app);
    const marker = `Newest ${Date.now()}`;
    await visitor.post('/api/v1/inquire/business', enquiry({ last_name: 'Older' }));
    await visitor.post('/api/v1/inquire/press', enquiry({ last_name: marker }));

    const all = await support.browser.get('/api/admin/enquiries');
    expect(all.statusCode).toBe(200);
    const page = all.json<Page<Enquiry>>();
    expect(page.data[0]).toMatchObject({ type: 'press', last_name: marker, first_name: 'Grace' });
    expect(page.data[0]?.forwarded_at).not.toBeNull();
    expect(page.data[1]).toMatchObject({ type: 'business', last_name: 'Older' });
    expect(page).toMatchObject({ current_page: 1, per_page: 25, total: await countEnquiries() });
    const ids = page.data.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    expect(page.last_page).toBe(Math.ceil(page.total / 25));
    expect(page.next_page_url).toBe('/api/admin/enquiries?page=2');
    const second = (await support.browser.get('/api/admin/enquiries?page=2')).json<Page<Enquiry>>();
    expect(second.data[0]!.id).toBeLessThan(page.data.at(-1)!.id);
    expect(second.prev_page_url).toBe('/api/admin/enquiries?page=1');

    const business = (await support.browser.get('/api/admin/enquiries?type=business')).json<Page<Enquiry>>();
    expect(business.data.length).toBeGreaterThan(0);
    expect(business.data.every((row) => row.type === 'business')).toBe(true);
    expect(business.data[0]).toMatchObject({ last_name: 'Older' });

    expect((await support.browser.get('/api/admin/enquiries?type=sales')).statusCode).toBe(422);
  });

  it('is open to support and superadmins; other staff, customers and visitors get the 404 of the back office', async () => {
    const superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
    expect((await superadmin.browser.get('/api/admin/enquiries')).statusCode).toBe(200);
    for (const role of ['compliance', 'finance'] as const) {
      const staff = await signedInStaff(t.app, t.database.db, role);
      const response = await staff.browser.get('/api/admin/enquiries');
      expect(response.statusCode, role).toBe(404);
      expect(response.json(), role).toMatchObject({ code: 'NOT_FOUND' });
    }
    const customer = await newCustomer(t);
    expect((await customer.get('/api/admin/enquiries')).statusCode).toBe(404);
    expect((await createBrowser(t.app).get('/api/admin/enquiries')).statusCode).toBe(404);
  });
});

describe('when mail fails', () => {
  it('still keeps the enquiry and answers the visitor; the back office shows it was not forwarded', async () => {
    let isMailUp = false;
    const broken: TestApp = await createTestApp({
      env: MAILBOXES,
      mailer: {
        kind: 'smtp',
        send: async (message) => {
          if (!isMailUp) throw new Error('SMTP server unreachable');
          await createDevMailbox(broken.database.db).send(message);
        },
      },
    });
    try {
      const body = enquiry();
      const response = await createBrowser(broken.app).post('/api/v1/inquire/business', body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: ENQUIRY_TEXTS.sent });
      const stored = await broken.database.db
        .selectFrom('enquiries')
        .select(['email', 'forwarded_at'])
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ email: body.email, forwarded_at: null });

      isMailUp = true;
      const staff = await signedInStaff(broken.app, broken.database.db, 'support');
      const listed = (await staff.browser.get('/api/admin/enquiries')).json<Page<Enquiry>>();
      expect(listed.data).toEqual([expect.objectContaining({ email: body.email, forwarded_at: null })]);
    } finally {
      await broken.close();
    }
  });

  it('leaves both mails to the outbox, whose sender sends them once the mail server is back', async () => {
    let isMailUp = false;
    const broken: TestApp = await createTestApp({
      env: MAILBOXES,
      mailer: {
        kind: 'smtp',
        send: async (message) => {
          if (!isMailUp) throw new Error('SMTP server unreachable');
          await createDevMailbox(broken.database.db).send(message);
        },
      },
    });
    try {
      const body = enquiry();
      expect((await createBrowser(broken.app).post('/api/v1/inquire/business', body)).statusCode).toBe(200);
      const db = broken.database.db;
      const outbox = () =>
        db.selectFrom('mail_outbox').select(['event', 'to_address', 'status']).orderBy('id').execute();
      expect(await outbox()).toEqual([
        { event: 'enquiry_forward', to_address: MAILBOXES.BUSINESS_EMAIL, status: 'pending' },
        { event: 'enquiry_acknowledgement', to_address: body.email, status: 'pending' },
      ]);

      isMailUp = true;
      testClock.advance(retryDelayMs(1));
      const sender = createNotifier({
        db,
        mailer: createDevMailbox(db),
        log: broken.app.log,
        clock: testClock,
      });
      expect(await sender.deliverPending()).toEqual({ sent: 2, failed: 0 });
      const forwarded = await mailTo(db, MAILBOXES.BUSINESS_EMAIL);
      expect(forwarded).toHaveLength(1);
      expect(forwarded[0]).toMatchObject({ reply_to: body.email });
      expect(forwarded[0]!.subject).toContain('enquiry from');
      expect(await mailTo(db, body.email)).toMatchObject([
        { subject: 'We have received your enquiry — Florin', reply_to: MAILBOXES.BUSINESS_EMAIL },
      ]);
    } finally {
      await broken.close();
    }
  });
});
