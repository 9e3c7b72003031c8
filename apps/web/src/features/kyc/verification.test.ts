import type { Company, Director, Document } from '@florin/contracts';
import { startPosition } from '@florin/domain';
import { describe, expect, it } from 'vitest';
import {
  complianceMailSubject,
  declinedDocuments,
  fileProblem,
  isAwaitingReview,
  licenceProblem,
  needsVerificationScreen,
  wizardFlagsOf,
  type VerificationFacts,
} from './verification';

let nextId = 1;
function doc(key: Document['key'], is_admin_approved: number, director_id: number | null = null): Document {
  nextId += 1;
  return {
    id: nextId,
    key,
    is_admin_approved,
    disapprove_note: is_admin_approved < 0 ? 'blurred photo' : null,
    director_id,
    content_type: 'image/png',
    created_at: '2026-11-23T10:00:00Z',
  };
}

function director(id: number, documents: Document[], done = true): Director {
  return {
    id,
    firstName: 'Grace',
    lastName: 'Hopper',
    shareHolding: '30.00',
    address: '1 High Street',
    city: 'London',
    zip: 'SW1A 1AA',
    country: 'GB',
    phone: '+44 20 7946 0000',
    birthdate: '1980-01-01',
    owner: 1,
    director: 0,
    status: 1,
    identity_done: done ? 1 : 0,
    proof_address_done: done ? 1 : 0,
    documents,
  };
}

function company(directors: Director[]): Company {
  return {
    id: 1,
    name: 'Acme Ltd',
    company_number: '01234567',
    address: '1 High Street',
    city: 'London',
    country: 'GB',
    zip: 'SW1A 1AA',
    directors,
  };
}

const FRESH: VerificationFacts = {
  status: 0,
  block_status: 0,
  account_type: 'Individual',
  is_kyc_submitted: 0,
  is_wealth_submitted: 0,
  is_photo_id_submitted: 0,
  is_proof_address_submitted: 0,
  is_selfie_submitted: 0,
  is_sow_reset: 0,
  verification_completed: 0,
  documents: [],
  company: null,
};

describe('the Getting Started states', () => {
  it('closes Get Started only once the finished wizard awaits review', () => {
    const uploads = [doc('passport', 0), doc('proof_address', 1)];
    expect(isAwaitingReview({ ...FRESH, documents: uploads })).toBe(false);
    expect(isAwaitingReview({ ...FRESH, verification_completed: 1, documents: uploads })).toBe(true);
    expect(isAwaitingReview({ ...FRESH, verification_completed: 1, documents: [doc('passport', 1)] })).toBe(
      false,
    );
  });

  it("counts a director's document awaiting review", () => {
    const facts = {
      ...FRESH,
      verification_completed: 1 as const,
      company: company([director(7, [doc('passport', 0, 7)])]),
    };
    expect(isAwaitingReview(facts)).toBe(true);
  });

  it("lists the customer's declined documents, then the directors'", () => {
    const own = doc('proof_address', -1);
    const theirs = doc('id_front', -1, 7);
    const facts = {
      ...FRESH,
      documents: [doc('passport', 1), own],
      company: company([director(7, [theirs, doc('proof_address', 0, 7)])]),
    };
    const declined = declinedDocuments(facts);
    expect(declined.map((entry) => [entry.document.id, entry.director?.id ?? null])).toEqual([
      [own.id, null],
      [theirs.id, 7],
    ]);
  });

  it('keeps a live customer on the verification screens while a document is declined, wealth is reset or a step is missing', () => {
    const live = {
      ...FRESH,
      status: 1,
      is_kyc_submitted: 1,
      is_wealth_submitted: 1,
      is_photo_id_submitted: 1,
      is_proof_address_submitted: 1,
    } as const;
    expect(needsVerificationScreen(live)).toBe(false);
    expect(needsVerificationScreen(FRESH)).toBe(true);
    // A new address waits for a new proof of address (DECISIONS.md).
    expect(needsVerificationScreen({ ...live, is_proof_address_submitted: 0 })).toBe(true);
    expect(needsVerificationScreen({ ...live, is_sow_reset: 1 })).toBe(true);
    expect(needsVerificationScreen({ ...live, documents: [doc('proof_address', -2)] })).toBe(true);
  });
});

describe('the wizard reading the user', () => {
  it('starts a Corporate customer with three company documents on the directors step', () => {
    const facts: VerificationFacts = {
      ...FRESH,
      account_type: 'Corporate',
      documents: [doc('coi', 0), doc('aoa', 1), doc('cproof_address', 0)],
      company: company([director(3, [], false)]),
    };
    expect(startPosition(wizardFlagsOf(facts))).toEqual({ step: 'directors', progress: 65 });
  });

  it('does not count a declined company document, nor one document twice', () => {
    const facts: VerificationFacts = {
      ...FRESH,
      account_type: 'Corporate',
      documents: [doc('coi', 0), doc('coi', 1), doc('aoa', -1), doc('cproof_address', 0)],
      company: company([director(3, [])]),
    };
    expect(wizardFlagsOf(facts).companyDocumentCount).toBe(2);
    expect(startPosition(wizardFlagsOf(facts))).toEqual({ step: 'company-documents', progress: 37.5 });
  });

  it('reads the Individual flags', () => {
    const facts = { ...FRESH, is_kyc_submitted: 1 as const, is_photo_id_submitted: 1 as const };
    expect(startPosition(wizardFlagsOf(facts))).toEqual({ step: 'selfie', progress: 50 });
  });
});

describe('checking files before they are sent', () => {
  const file = (name: string, type: string, size = 1_000) => ({ name, type, size });

  it('accepts jpeg, jpg, png and pdf whatever the case', () => {
    for (const name of ['id.JPG', 'id.jpeg', 'scan.Png', 'bill.PDF']) {
      expect(fileProblem(file(name, ''))).toBeNull();
    }
    expect(fileProblem(file('id.png', 'image/png'))).toBeNull();
  });

  it('refuses anything else with the spec text', () => {
    const text = 'File format not supported. Accepts only JPEG, JPG, PNG and PDF.';
    expect(fileProblem(file('id.gif', 'image/gif'))).toBe(text);
    expect(fileProblem(file('page.html', 'text/html'))).toBe(text);
    expect(fileProblem(file('id.png', 'image/svg+xml'))).toBe(text);
    expect(fileProblem(file('png', ''))).toBe(text);
  });

  it('refuses a file over 10 MB', () => {
    expect(fileProblem(file('id.png', 'image/png', 10 * 1024 * 1024 + 1))).toBe(
      'The file is larger than 10 MB. Please upload a smaller file.',
    );
    expect(fileProblem(file('id.png', 'image/png', 10 * 1024 * 1024))).toBeNull();
  });

  it('wants exactly two files for a driver licence', () => {
    const side = file('front.jpg', 'image/jpeg');
    expect(licenceProblem([side])).toBe('You are required to upload two images only.');
    expect(licenceProblem([side, side, side])).toBe('You are required to upload two images only.');
    expect(licenceProblem([side, side])).toBeNull();
    expect(licenceProblem([side, file('back.gif', 'image/gif')])).toBe(
      'File format not supported. Accepts only JPEG, JPG, PNG and PDF.',
    );
  });

  it('names the customer and their reference in the compliance mail subject', () => {
    expect(
      complianceMailSubject({ first_name: 'Ada', last_name: 'Lovelace', user_identification: 'FLAB2CD3EF' }),
    ).toBe('Ada Lovelace FLAB2CD3EF');
  });
});
