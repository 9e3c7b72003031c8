import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../adapters/storage/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertStaff } from '../../test/admin.js';
import { createKycRepository } from './repository.js';
import { createTradingVolumes } from '../trading-volume/service.js';
import { createKycService, type KycService } from './service.js';
import { DETAILS, WEALTH_NO, jpeg, newCustomer, pdf, png } from './kyc.test-kit.js';

/** The functions the back office calls, and the storage rule an HTTP test cannot reach. */

let t: TestApp;
let folder: string;
let kyc: KycService;
let staffId: number;

beforeAll(async () => {
  t = await createTestApp();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-kyc-service-'));
  kyc = createKycService({
    db: t.database.db,
    repository: createKycRepository(t.database.db),
    storage: createLocalStorage(folder),
    complianceEmail: 'compliance@florin.test',
    tradingVolumes: createTradingVolumes(t.database.db),
  });
  staffId = (await insertStaff(t.database.db, { role: 'compliance' })).id;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** An Individual who has submitted every step, through the service. */
async function submittedCustomer() {
  const customer = await newCustomer(t);
  await kyc.saveDetails(customer.id, DETAILS);
  const uploaded = [
    ...(await kyc.uploadIdProof(customer.id, { doc_type: 'passport' }, [
      { filename: 'p.jpg', bytes: await jpeg() },
    ])),
    ...(await kyc.uploadIdProof(customer.id, { doc_type: 'proof_selfie' }, [
      { filename: 's.png', bytes: await png() },
    ])),
    ...(await kyc.uploadIdProof(customer.id, { doc_type: 'proof_address' }, [
      { filename: 'b.pdf', bytes: pdf() },
    ])),
  ];
  await kyc.createAnswers(customer.id, WEALTH_NO);
  return { customer, documentIds: uploaded.map((document) => document.id) };
}

describe('the back office functions', () => {
  // Staff decide documents in the compliance module (with its audit row); here only the outcome matters.
  async function decide(id: number, status: 'approved' | 'declined', note: string | null = null) {
    await t.database.db
      .updateTable('kyc_documents')
      .set({ status, disapprove_note: note, reviewed_by_staff_id: staffId })
      .where('id', '=', String(id))
      .execute();
  }

  it('tell when everything is approved, and count declined documents', async () => {
    const { customer, documentIds } = await submittedCustomer();
    expect(await kyc.isEverythingApproved(customer.id)).toBe(false);

    const [first, ...rest] = documentIds as [number, ...number[]];
    await decide(first, 'declined', 'Blurred.');
    const declined = await kyc.getVerificationState(customer.id);
    expect(declined.denied_documents).toBe(1);
    expect(declined.documents.find((document) => document.id === first)).toMatchObject({
      is_admin_approved: -1,
      disapprove_note: 'Blurred.',
    });

    for (const id of [first, ...rest]) await decide(id, 'approved');
    expect(await kyc.isEverythingApproved(customer.id)).toBe(true);
    expect((await kyc.getVerificationState(customer.id)).denied_documents).toBe(0);
  });

  it("read any customer's file for staff", async () => {
    const { documentIds } = await submittedCustomer();
    const file = await kyc.readDocumentFile(documentIds[2] as number);
    expect(file).toMatchObject({ contentType: 'application/pdf', filename: 'b.pdf' });
    expect(file.bytes.equals(pdf())).toBe(true);
    await expect(kyc.readDocumentFile(987654321)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('storage and the database stay in step', () => {
  it('deletes the stored file again when the database refuses the row', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-kyc-failing-'));
    try {
      const repository = createKycRepository(t.database.db);
      const local = createLocalStorage(empty);
      const putKeys: string[] = [];
      const failing = createKycService({
        db: t.database.db,
        repository: {
          ...repository,
          insertDocument: () => Promise.reject(new Error('the database went away')),
        },
        storage: {
          ...local,
          put: async (bytes, contentType) => {
            const key = await local.put(bytes, contentType);
            putKeys.push(key);
            return key;
          },
        },
        complianceEmail: 'compliance@florin.test',
        tradingVolumes: createTradingVolumes(t.database.db),
      });
      const customer = await newCustomer(t);
      await expect(
        failing.uploadIdProof(customer.id, { doc_type: 'passport' }, [
          { filename: 'p.jpg', bytes: await jpeg() },
        ]),
      ).rejects.toThrow('the database went away');
      expect(putKeys).toHaveLength(1);
      expect(fs.readdirSync(empty)).toEqual([]);
      const rows = await t.database.db
        .selectFrom('kyc_documents')
        .select('id')
        .where('user_id', '=', customer.id)
        .execute();
      expect(rows).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
