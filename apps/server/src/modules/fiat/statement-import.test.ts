import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminFiatDepositSchema, FIAT_TEXTS, pageSchema } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signedInStaff, type SignedInStaff } from '../../test/admin.js';
import { bankDeposit } from '../../test/deposits.js';
import {
  balanceOf,
  errorOf,
  expectFiatLedgerToHold,
  GBP_ACCOUNT,
  liveCustomer,
  withdraw,
  type FiatCustomer,
} from './fiat.test-kit.js';
import { readCamt053Statement } from './statement-camt053.js';
import { ukCamt053 } from './statement.test-kit.js';

/** Decision 132: a bank account is verified by money from it; money from another account waits for staff. */

let t: TestApp;
let finance: SignedInStaff;

beforeAll(async () => {
  t = await createTestApp();
  finance = await signedInStaff(t.app, t.database.db, 'finance');
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
let transactions = 0;
const transactionId = () => `BANKREF-${Date.now()}-${(transactions += 1)}`;

/** A live customer who registered their GBP account through the API (unverified, as it starts). */
async function registeredCustomer(
  firstName: string,
  lastName: string,
  sortCode: string,
  accountNumber: string,
) {
  const customer = await liveCustomer(t, { firstName, lastName });
  const created = await customer.browser.post('/api/v1/bank-account/create', {
    ...GBP_ACCOUNT,
    name_of_account: `${firstName} ${lastName}`,
    bank_sort_code: sortCode,
    bank_account_number: accountNumber,
  });
  expect(created.statusCode, created.body).toBe(200);
  return { ...customer, accountId: created.json<{ data: { id: number } }>().data.id };
}

async function accountOf(id: number) {
  return db()
    .selectFrom('bank_accounts')
    .select(['verified_at', 'verified_by'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function suspenseOf(ids: string[]) {
  const listed = await finance.browser.get('/api/admin/fiat/deposits?status=suspense');
  return pageSchema(AdminFiatDepositSchema)
    .parse(listed.json())
    .data.filter((deposit) => ids.includes(deposit.bank_transaction_id));
}

function importStatement(body: Record<string, unknown>) {
  return finance.browser.post('/api/admin/fiat/deposits/import', { currency: 'GBP', ...body });
}

type ImportResult = { lines: { line: number; outcome: string; message: string | null }[] } & Record<
  string,
  number
>;

describe('a camt.053 statement', () => {
  it('credits and verifies the registered account, parks an unknown account in suspense, skips the debit', async () => {
    const grace = await registeredCustomer('Grace', 'Hopper', '20-00-00', '55779911');
    const alan = await registeredCustomer('Alan', 'Turing', '40-11-62', '31926819');
    const ids = [transactionId(), transactionId(), transactionId()];
    const xml = ukCamt053([
      {
        credit: {
          bankReference: ids[0] ?? '',
          amount: '1500.00',
          payerName: 'HOPPER G',
          payerAccount: { otherId: '20000055779911' },
          remittance: grace.reference,
        },
      },
      {
        debit: {
          bankReference: ids[1] ?? '',
          amount: '120.00',
          creditorName: 'ACME HOSTING',
          remittance: 'INV 77',
        },
      },
      {
        credit: {
          bankReference: ids[2] ?? '',
          amount: '300.00',
          payerName: 'MR A M TURING',
          // Alan's name and reference, but not the account he registered.
          payerAccount: { iban: 'GB33BUKB20201555555555' },
          remittance: `FLORIN ${alan.reference}`,
        },
      },
    ]);
    const first = await importStatement({ format: 'camt053', xml });
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<{ data: ImportResult }>().data;
    expect(result).toMatchObject({ credited: 1, suspense: 1, duplicates: 0, skipped: 1, invalid: 0 });
    expect(result.lines.map((line) => [line.line, line.outcome])).toEqual([
      [1, 'credited'],
      [2, 'skipped'],
      [3, 'suspense'],
    ]);
    expect((await balanceOf(t, grace.id)).available).toBe(150_000n);
    expect(await accountOf(grace.accountId)).toMatchObject({ verified_by: 'deposit' });
    expect((await balanceOf(t, alan.id)).available).toBe(0n);
    expect(await accountOf(alan.accountId)).toEqual({ verified_at: null, verified_by: null });

    const parked = await suspenseOf(ids);
    expect(parked).toEqual([
      expect.objectContaining({
        bank_transaction_id: ids[2],
        suspense_reason: 'unknown_account',
        user_id: alan.id,
        payer_iban: 'GB33BUKB20201555555555',
        payer_sort_code: '202015',
        payer_account_number: '55555555',
      }),
    ]);

    // The same file again credits nothing; staff credit the parked transfer once they know whose it is.
    const again = await importStatement({ format: 'camt053', xml });
    expect(again.json<{ data: ImportResult }>().data).toMatchObject({
      credited: 0,
      suspense: 0,
      duplicates: 2,
    });
    const assigned = await finance.browser.post(`/api/admin/fiat/deposits/${parked[0]?.id}/assign`, {
      user_id: alan.id,
      reason: 'Customer showed the statement of his second account.',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect((await balanceOf(t, alan.id)).available).toBe(30_000n);
    // Staff crediting it says nothing of the registered account: it stays unverified.
    expect(await accountOf(alan.accountId)).toEqual({ verified_at: null, verified_by: null });
    await expectFiatLedgerToHold(db());
  });

  it('reads version 001.08 (name under Pty, status under Cd) and batch entries with their own amounts', () => {
    const lines = readCamt053Statement(`<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
  <Ntry><Amt Ccy="EUR">30.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
    <BookgDt><DtTm>2026-12-04T10:00:00</DtTm></BookgDt>
    <NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>
      <TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs><Amt Ccy="EUR">10.00</Amt>
        <RltdPties><Dbtr><Pty><Nm>Marie Curie</Nm></Pty></Dbtr><DbtrAcct><Id><IBAN>FR14 2004 1010 0505 0001 3M02 606</IBAN></Id></DbtrAcct></RltdPties>
        <RmtInf><Ustrd>FL123</Ustrd><Ustrd>456</Ustrd></RmtInf></TxDtls>
      <TxDtls><Refs><AcctSvcrRef>SVC-2</AcctSvcrRef></Refs><Amt Ccy="EUR">20.00</Amt>
        <RltdPties><Dbtr><Pty><Nm>Pierre &amp; Marie</Nm></Pty></Dbtr></RltdPties></TxDtls>
    </NtryDtls></Ntry>
  <Ntry><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts><NtryRef>N-3</NtryRef></Ntry>
</Stmt></BkToCstmrStmt></Document>`);
    expect(lines).toEqual([
      expect.objectContaining({
        line: 1,
        transactionId: 'E2E-1',
        amountText: '10.00',
        currency: 'EUR',
        payer: 'Marie Curie',
        reference: 'FL123 456',
        date: '2026-12-04T10:00:00',
        payerAccount: { iban: 'FR14 2004 1010 0505 0001 3M02 606', bic: '' },
        notIncoming: null,
      }),
      expect.objectContaining({
        line: 1,
        transactionId: 'SVC-2',
        amountText: '20.00',
        payer: 'Pierre & Marie',
      }),
      expect.objectContaining({ line: 2, transactionId: 'N-3', notIncoming: 'Not booked yet.' }),
    ]);
  });

  it('refuses garbage, another document, entity declarations and oversized statements with a sentence', async () => {
    const refusal = async (body: Record<string, unknown>) => {
      const response = await importStatement({ format: 'camt053', ...body });
      expect(response.statusCode, response.body).toBe(422);
      return errorOf(response).errors;
    };
    expect(await refusal({ xml: 'Date,Amount\n2026-12-04,10.00' })).toEqual({ xml: [FIAT_TEXTS.camtNotXml] });
    expect(await refusal({ xml: '<Document><BkToCstmrStmt>' })).toEqual({ xml: [FIAT_TEXTS.camtNotXml] });
    expect(
      await refusal({
        xml: '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"><BkToCstmrAcctRpt/></Document>',
      }),
    ).toEqual({ xml: [FIAT_TEXTS.camtWrongDocument] });
    const xxe = `<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry>
<Amt Ccy="GBP">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><AcctSvcrRef>&leak;</AcctSvcrRef></Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect(await refusal({ xml: xxe })).toEqual({ xml: [FIAT_TEXTS.camtDeclaresEntities] });
    const entry = { debit: { bankReference: 'D', amount: '1.00', creditorName: 'X', remittance: 'Y' } };
    const tooMany = ukCamt53Compact(2_001);
    expect(await refusal({ xml: tooMany })).toEqual({ xml: [FIAT_TEXTS.camtTooManyEntries] });
    expect(await refusal({ xml: ukCamt053([]) })).toEqual({ xml: [FIAT_TEXTS.camtNoEntries] });
    expect(await refusal({ xml: ukCamt053([entry]).padEnd(900_001, ' ') })).toHaveProperty('xml');
    expect(await refusal({})).toEqual({ xml: [FIAT_TEXTS.statementFileMissing] });
  });
});

/** A statement of `count` small debit entries: over the limit without being over the size bound. */
function ukCamt53Compact(count: number): string {
  const entry = '<Ntry><Amt Ccy="GBP">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts></Ntry>';
  return `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${entry.repeat(count)}</Stmt></BkToCstmrStmt></Document>`;
}

describe('a CSV statement with the payer’s account', () => {
  it('credits and verifies the registered account and parks another, by the mapped columns', async () => {
    const ada = await registeredCustomer('Ada', 'Lovelace', '30-90-89', '12121212');
    const ids = [transactionId(), transactionId(), transactionId()];
    const csv = [
      'Date,Amount,Details,Name,Sort Code,Account No,Ref',
      `2026-12-04,250.00,${ada.reference},A LOVELACE,30-90-89,12121212,${ids[0]}`,
      `2026-12-04,90.00,${ada.reference},A LOVELACE,30-90-89,99999999,${ids[1]}`,
      `2026-12-04,40.00,${ada.reference},A LOVELACE,30-90,12121212,${ids[2]}`,
    ].join('\n');
    const response = await importStatement({
      csv,
      mapping: {
        date: 'Date',
        amount: 'Amount',
        reference: 'Details',
        payer: 'Name',
        transaction_id: 'Ref',
        sort_code: 'Sort Code',
        account_number: 'Account No',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<{ data: ImportResult }>().data;
    expect(result.lines.map((line) => [line.outcome, line.message])).toEqual([
      ['credited', null],
      ['suspense', null],
      ['invalid', FIAT_TEXTS.payerAccountInvalid],
    ]);
    expect((await balanceOf(t, ada.id)).available).toBe(25_000n);
    expect(await accountOf(ada.accountId)).toMatchObject({ verified_by: 'deposit' });
    expect((await suspenseOf(ids)).map((deposit) => deposit.suspense_reason)).toEqual(['unknown_account']);

    const unnamed = await importStatement({ csv, mapping: { ...mappingOf(), iban: 'IBAN' } });
    expect(unnamed.statusCode).toBe(422);
    expect(errorOf(unnamed).errors).toEqual({ 'mapping.iban': ['The file has no column named "IBAN".'] });
    await expectFiatLedgerToHold(db());
  });
});

function mappingOf() {
  return { date: 'Date', amount: 'Amount', reference: 'Details', payer: 'Name', transaction_id: 'Ref' };
}

describe('a transfer recorded by hand', () => {
  const record = (customer: FiatCustomer, extra: Record<string, unknown> = {}) =>
    finance.browser.post('/api/admin/fiat/deposits', {
      currency: 'GBP',
      amount: '500.00',
      payer_name: `${customer.firstName} Hamilton`,
      reference: customer.reference,
      bank_transaction_id: transactionId(),
      ...extra,
    });

  it('without the account credits by name but verifies nothing, so the customer cannot withdraw yet', async () => {
    const margaret = await registeredCustomer('Margaret', 'Hamilton', '60-16-13', '31926819');
    const recorded = await record(margaret);
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json<{ data: { outcome: string } }>().data.outcome).toBe('credited');
    expect((await balanceOf(t, margaret.id)).available).toBe(50_000n);
    expect(await accountOf(margaret.accountId)).toEqual({ verified_at: null, verified_by: null });
    const refused = await withdraw(margaret, { amount: '50' });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: 'BANK_ACCOUNT_NOT_SET',
      message: FIAT_TEXTS.bankAccountUnverified,
    });

    // The test kit's deposit comes from the registered account, so the money verifies it.
    await bankDeposit(t, margaret, '1.00');
    expect(await accountOf(margaret.accountId)).toMatchObject({ verified_by: 'deposit' });
  });

  it('from another account, or from any account before one is registered, waits in suspense', async () => {
    const registered = await registeredCustomer('Katherine', 'Hamilton', '60-16-13', '31926819');
    const other = await record(registered, { payer_sort_code: '601613', payer_account_number: '00000001' });
    expect(
      other.json<{ data: { outcome: string; deposit: { suspense_reason: string } } }>().data,
    ).toMatchObject({
      outcome: 'suspense',
      deposit: {
        suspense_reason: 'unknown_account',
        payer_sort_code: '601613',
        payer_account_number: '00000001',
      },
    });
    const unregistered = await liveCustomer(t, { firstName: 'Dorothy', lastName: 'Hamilton' });
    const none = await record(unregistered, { payer_iban: 'GB29 NWBK 6016 1331 9268 19' });
    expect(
      none.json<{ data: { outcome: string; deposit: { suspense_reason: string } } }>().data,
    ).toMatchObject({
      outcome: 'suspense',
      deposit: { suspense_reason: 'unknown_account', payer_iban: 'GB29NWBK60161331926819' },
    });
    expect((await balanceOf(t, unregistered.id)).available).toBe(0n);
    await expectFiatLedgerToHold(db());
  });

  it('checks the account it is given', async () => {
    const customer = await liveCustomer(t);
    const half = await record(customer, { payer_sort_code: '601613' });
    expect(errorOf(half).errors).toEqual({ payer_account_number: [FIAT_TEXTS.payerAccountIncomplete] });
    const iban = await record(customer, { payer_iban: 'GB00NWBK60161331926819' });
    expect(errorOf(iban).errors).toEqual({ payer_iban: [FIAT_TEXTS.payerIbanInvalid] });
  });
});
