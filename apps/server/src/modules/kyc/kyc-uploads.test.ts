import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_TEXTS, type Document } from '@florin/contracts';
import { MAX_UPLOAD_BYTES } from '../../security/uploads.js';
import {
  COMPANY,
  DIRECTOR,
  createKycTestApp,
  errorOf,
  filePart,
  jpeg,
  newCustomer,
  pdf,
  pdfWithJavaScript,
  png,
  storedFiles,
  type KycTestApp,
} from './kyc.test-kit.js';

let t: KycTestApp;

beforeAll(async () => {
  t = await createKycTestApp();
});
afterAll(async () => {
  await t.close();
});

async function documentCount(): Promise<number> {
  const row = await t.database.db
    .selectFrom('kyc_documents')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const HTML = Buffer.from('<!doctype html><html><body><script>fetch("/api/v1/user")</script></body></html>');
const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

describe('a refused upload stores nothing', () => {
  const cases: [string, () => Promise<{ bytes: Buffer; filename: string }>][] = [
    ['an HTML page renamed to .png', () => Promise.resolve({ bytes: HTML, filename: 'passport.png' })],
    ['an SVG with a script renamed to .jpg', () => Promise.resolve({ bytes: SVG, filename: 'passport.jpg' })],
    [
      'a PNG with an HTML page after it (polyglot)',
      async () => ({ bytes: Buffer.concat([await png(), HTML]), filename: 'passport.png' }),
    ],
    [
      'a PDF that runs JavaScript',
      () => Promise.resolve({ bytes: pdfWithJavaScript(), filename: 'passport.pdf' }),
    ],
    ['a real PNG named .gif', async () => ({ bytes: await png(), filename: 'passport.gif' })],
  ];

  it.each(cases)('refuses %s with the spec text', async (_name, makeFile) => {
    const customer = await newCustomer(t);
    const file = await makeFile();
    const response = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(file.bytes, file.filename),
    ]);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({ code: 'UNSUPPORTED_FILE', message: KYC_TEXTS.fileFormat });
    expect(await documentCount()).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });

  it('refuses a file over 10 MB with 413 FILE_TOO_LARGE', async () => {
    const customer = await newCustomer(t);
    const oversized = Buffer.concat([await png(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const response = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(oversized, 'passport.png'),
    ]);
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 10 MB. Please upload a smaller file.',
    });
    expect(await documentCount()).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });

  it('stores neither side of a licence when one side is refused', async () => {
    const customer = await newCustomer(t);
    const response = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'driver_license' },
      filePart(await jpeg(), 'front.jpg', 'file[]'),
      filePart(HTML, 'back.jpg', 'file[]'),
    ]);
    expect(response.statusCode).toBe(422);
    expect(await documentCount()).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });

  it("refuses a director's refused file the same way", async () => {
    const customer = await newCustomer(t, { accountType: 'Corporate' });
    await customer.post('/api/v1/users/corporate/company', COMPANY);
    const director = (await customer.post('/api/v1/users/corporate/company-director', DIRECTOR)).json<{
      data: { id: number };
    }>().data;
    const response = await customer.upload(
      `/api/v1/users/corporate/company-director/${director.id}/document-upload`,
      [{ name: 'type', value: 'proof_address' }, filePart(pdfWithJavaScript(), 'bill.pdf')],
    );
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).message).toBe(KYC_TEXTS.fileFormat);
    expect(await documentCount()).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });

  it('validates the form fields with the contract', async () => {
    const customer = await newCustomer(t);
    const noType = await customer.upload('/api/v1/user/id-proof', [filePart(await jpeg(), 'a.jpg')]);
    expect(noType.statusCode).toBe(422);
    expect(errorOf(noType).errors).toEqual({ doc_type: ['Please choose the document type.'] });

    const stranger = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      { name: 'colour', value: 'blue' },
      filePart(await jpeg(), 'a.jpg'),
    ]);
    expect(stranger.statusCode).toBe(422);
    expect(errorOf(stranger).errors).toEqual({ colour: ['This field is not allowed.'] });

    const badParameters = await customer.upload('/api/v1/user/documents/upload', [
      { name: 'parameters', value: JSON.stringify({ user_id: customer.id, key: 'tax_return' }) },
      filePart(await jpeg(), 'a.jpg'),
    ]);
    expect(badParameters.statusCode).toBe(422);
    expect(Object.keys(errorOf(badParameters).errors ?? {})).toEqual(['key']);

    const noFile = await customer.upload('/api/v1/user/id-proof', [{ name: 'doc_type', value: 'passport' }]);
    expect(noFile.statusCode).toBe(422);
    expect(errorOf(noFile).errors).toEqual({ file: [KYC_TEXTS.oneFile] });

    const json = await customer.post('/api/v1/user/id-proof', { doc_type: 'passport' });
    expect(json.statusCode).toBe(400);
    expect(await documentCount()).toBe(0);
    expect(storedFiles(t)).toEqual([]);
  });
});

describe('an upload naming fields after built-in object keys', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf'])(
    'answers 422 naming %s, in parameters and as a form field, and stores nothing',
    async (key) => {
      const customer = await newCustomer(t);
      const inParameters = await customer.upload('/api/v1/user/documents/upload', [
        { name: 'parameters', value: `{"user_id":${customer.id},"key":"passport","${key}":"x"}` },
        filePart(await jpeg(), 'a.jpg'),
      ]);
      expect(inParameters.statusCode, inParameters.body).toBe(422);
      // Read as entries: a parsed "__proto__" key would vanish into the prototype again.
      expect(Object.entries(inParameters.json<{ errors: object }>().errors)).toEqual([
        [key, ['This field is not allowed.']],
      ]);

      const asField = await customer.upload('/api/v1/user/id-proof', [
        { name: 'doc_type', value: 'passport' },
        { name: key, value: 'x' },
        filePart(await jpeg(), 'a.jpg'),
      ]);
      expect(asField.statusCode, asField.body).toBe(422);
      expect(errorOf(asField).errors).toEqual({ body: ['The form has a field that is not allowed.'] });
      expect(await documentCount()).toBe(0);
      expect(storedFiles(t)).toEqual([]);
    },
  );
});

describe('an accepted upload', () => {
  it('is stored re-encoded under a random name, and its owner reads it back as a download', async () => {
    const customer = await newCustomer(t);
    const original = await jpeg();
    const response = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'passport' },
      filePart(original, '../../etc/<passport>.jpg'),
    ]);
    expect(response.statusCode).toBe(200);
    const [document] = response.json<{ data: { documents: Document[] } }>().data.documents;
    const files = storedFiles(t);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toContain('passport');

    const row = await t.database.db
      .selectFrom('kyc_documents')
      .select(['original_name', 'size_bytes'])
      .where('id', '=', String(document?.id))
      .executeTakeFirstOrThrow();
    expect(row.original_name).toBe('_passport_.jpg');

    const file = await customer.get(`/api/v1/user/documents/${document?.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-disposition': `attachment; filename="_passport_.jpg"; filename*=UTF-8''_passport_.jpg`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; frame-ancestors 'none'",
      'cache-control': 'no-store',
    });
    expect(file.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(file.rawPayload.length).toBe(row.size_bytes);
  });

  it('keeps a PDF as it was sent', async () => {
    const customer = await newCustomer(t);
    const response = await customer.upload('/api/v1/user/id-proof', [
      { name: 'doc_type', value: 'proof_address' },
      filePart(pdf(), 'Bill.PDF'),
    ]);
    expect(response.statusCode).toBe(200);
    const [document] = response.json<{ data: { documents: Document[] } }>().data.documents;
    const file = await customer.get(`/api/v1/user/documents/${document?.id}/file`);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(pdf())).toBe(true);
  });
});

describe('uploads are limited', () => {
  it('takes 20 uploads in 10 minutes from one customer, then 429 without storing, and holds up nobody else', async () => {
    const customer = await newCustomer(t);
    const upload = (by: typeof customer) =>
      by.upload('/api/v1/user/id-proof', [
        { name: 'doc_type', value: 'proof_address' },
        filePart(pdf(), 'bill.pdf'),
      ]);
    for (let sent = 0; sent < 20; sent += 1) expect((await upload(customer)).statusCode).toBe(200);
    const [documentsBefore, filesBefore] = [await documentCount(), storedFiles(t).length];

    const refused = await upload(customer);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({ code: 'RATE_LIMITED', message: KYC_TEXTS.tooManyUploads });
    expect(await documentCount()).toBe(documentsBefore);
    expect(storedFiles(t)).toHaveLength(filesBefore);
    // Counted per customer: another one from the same address uploads as before.
    expect((await upload(await newCustomer(t))).statusCode).toBe(200);
  });
});
