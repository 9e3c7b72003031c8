import { describe, expect, it } from 'vitest';
import {
  deriveVerificationFlags,
  isEveryStepSubmitted,
  keysReplacedBy,
  type CurrentDocument,
  type FlagsInput,
} from './flags.js';

const pending = (...keys: CurrentDocument['key'][]): CurrentDocument[] =>
  keys.map((key) => ({ key, status: 'pending' }));

const individual = (overrides: Partial<FlagsInput> = {}): FlagsInput => ({
  accountType: 'Individual',
  hasDetails: false,
  hasAnswers: false,
  hasCompany: false,
  handedIn: false,
  documents: [],
  directors: [],
  ...overrides,
});

const corporate = (overrides: Partial<FlagsInput> = {}): FlagsInput =>
  individual({ accountType: 'Corporate', ...overrides });

describe('the Individual flags', () => {
  it('are all 0 for a customer who has submitted nothing', () => {
    expect(deriveVerificationFlags(individual())).toEqual({
      is_kyc_submitted: 0,
      is_photo_id_submitted: 0,
      is_selfie_submitted: 0,
      is_proof_address_submitted: 0,
      is_wealth_submitted: 0,
      denied_documents: 0,
      directors: [],
    });
  });

  it('count the details, the answers and each kind of document once it is uploaded', () => {
    const flags = deriveVerificationFlags(
      individual({
        hasDetails: true,
        hasAnswers: true,
        documents: pending('passport', 'proof_selfie', 'proof_address'),
      }),
    );
    expect(flags).toMatchObject({
      is_kyc_submitted: 1,
      is_photo_id_submitted: 1,
      is_selfie_submitted: 1,
      is_proof_address_submitted: 1,
      is_wealth_submitted: 1,
    });
    expect(isEveryStepSubmitted(flags)).toBe(true);
  });

  it.each([
    [['passport'], 1],
    [['national_id_front'], 1],
    [['id_front', 'id_back'], 1],
    [['id_front'], 0],
    [['id_back'], 0],
    [['proof_selfie', 'proof_address'], 0],
  ] as const)('take %j as photo id: %i', (keys, expected) => {
    expect(deriveVerificationFlags(individual({ documents: pending(...keys) })).is_photo_id_submitted).toBe(
      expected,
    );
  });

  it('keep a declined document submitted and count it as denied', () => {
    const flags = deriveVerificationFlags(
      individual({
        documents: [
          { key: 'passport', status: 'approved' },
          { key: 'proof_address', status: 'declined' },
        ],
      }),
    );
    expect(flags.is_proof_address_submitted).toBe(1);
    expect(flags.denied_documents).toBe(1);
  });

  it('do not let a customer choose Instant or Trade with one step missing', () => {
    const flags = deriveVerificationFlags(
      individual({ hasDetails: true, hasAnswers: true, documents: pending('passport', 'proof_address') }),
    );
    expect(flags.is_selfie_submitted).toBe(0);
    expect(isEveryStepSubmitted(flags)).toBe(false);
  });
});

describe('the Corporate flags', () => {
  const doneDirector = { isDirector: true, documents: pending('passport', 'proof_address') };
  const doneOwner = { isDirector: false, documents: pending('passport', 'proof_address') };

  it('count the company as the details step and never ask for a selfie', () => {
    const flags = deriveVerificationFlags(corporate({ hasCompany: true }));
    expect(flags).toMatchObject({ is_kyc_submitted: 1, is_selfie_submitted: 1, is_photo_id_submitted: 0 });
  });

  it('need the certificate, the articles and every director identified for photo id', () => {
    const companyDocuments = pending('coi', 'aoa', 'cproof_address');
    expect(
      deriveVerificationFlags(corporate({ documents: companyDocuments, directors: [] }))
        .is_photo_id_submitted,
    ).toBe(0);
    expect(
      deriveVerificationFlags(
        corporate({
          documents: companyDocuments,
          directors: [doneDirector, { isDirector: false, documents: pending('proof_address') }],
        }),
      ),
    ).toMatchObject({
      is_photo_id_submitted: 0,
      is_proof_address_submitted: 1,
      directors: [
        { identity_done: 1, proof_address_done: 1 },
        { identity_done: 0, proof_address_done: 1 },
      ],
    });
    expect(
      deriveVerificationFlags(corporate({ documents: pending('coi', 'aoa'), directors: [doneDirector] })),
    ).toMatchObject({ is_photo_id_submitted: 1, is_proof_address_submitted: 0 });
  });

  it('need at least one director: owners alone, each with both documents, leave photo id and address at 0', () => {
    const companyDocuments = pending('coi', 'aoa', 'cproof_address');
    const ownersOnly = deriveVerificationFlags(
      corporate({
        hasCompany: true,
        hasAnswers: true,
        documents: companyDocuments,
        directors: [doneOwner, doneOwner],
      }),
    );
    expect(ownersOnly).toMatchObject({ is_photo_id_submitted: 0, is_proof_address_submitted: 0 });
    expect(isEveryStepSubmitted(ownersOnly)).toBe(false);
    const withDirector = deriveVerificationFlags(
      corporate({
        hasCompany: true,
        hasAnswers: true,
        documents: companyDocuments,
        directors: [doneOwner, doneDirector],
      }),
    );
    expect(withDirector).toMatchObject({ is_photo_id_submitted: 1, is_proof_address_submitted: 1 });
    expect(isEveryStepSubmitted(withDirector)).toBe(true);
    // A company handed in before the rule, with owners only, is not sent back by it.
    const handedInBefore = deriveVerificationFlags(
      corporate({
        hasCompany: true,
        hasAnswers: true,
        handedIn: true,
        documents: companyDocuments,
        directors: [doneOwner],
      }),
    );
    expect(isEveryStepSubmitted(handedInBefore)).toBe(true);
    expect(
      deriveVerificationFlags(
        corporate({
          hasCompany: true,
          hasAnswers: true,
          handedIn: true,
          documents: companyDocuments,
          directors: [],
        }),
      ),
    ).toMatchObject({ is_photo_id_submitted: 0, is_proof_address_submitted: 0 });
  });

  it("count the directors' declined documents among the denied ones", () => {
    const flags = deriveVerificationFlags(
      corporate({
        documents: [{ key: 'coi', status: 'declined' }],
        directors: [
          {
            isDirector: true,
            documents: [
              { key: 'passport', status: 'declined' },
              { key: 'proof_address', status: 'approved' },
            ],
          },
        ],
      }),
    );
    expect(flags.denied_documents).toBe(2);
    expect(flags.directors).toEqual([{ identity_done: 1, proof_address_done: 1 }]);
  });
});

describe('what an upload replaces', () => {
  it('replaces every identity document with a passport, a national id or a whole licence', () => {
    const identity = ['passport', 'national_id_front', 'id_front', 'id_back'];
    expect(keysReplacedBy(['passport']).sort()).toEqual([...identity].sort());
    expect(keysReplacedBy(['national_id_front']).sort()).toEqual([...identity].sort());
    expect(keysReplacedBy(['id_front', 'id_back']).sort()).toEqual([...identity].sort());
  });

  it('keeps the other side of a licence when one side is uploaded again', () => {
    expect(keysReplacedBy(['id_front']).sort()).toEqual(['id_front', 'national_id_front', 'passport']);
    expect(keysReplacedBy(['id_back']).sort()).toEqual(['id_back', 'national_id_front', 'passport']);
  });

  it('replaces only the same kind for anything else', () => {
    expect(keysReplacedBy(['proof_address'])).toEqual(['proof_address']);
    expect(keysReplacedBy(['coi'])).toEqual(['coi']);
  });
});
