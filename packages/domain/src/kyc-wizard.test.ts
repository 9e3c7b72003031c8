import { describe, expect, it } from 'vitest';
import {
  WIZARD_PROGRESS_VALUES,
  areDirectorsComplete,
  backPosition,
  hasCompanyDirector,
  isDirectorStatus,
  isOwnerStatus,
  nextPosition,
  startPosition,
  stepNumber,
  type WizardAccountType,
  type WizardFlags,
  type WizardStep,
} from './kyc-wizard.js';

const NOTHING: WizardFlags = {
  accountType: 'Individual',
  isKycSubmitted: false,
  isPhotoIdSubmitted: false,
  isSelfieSubmitted: false,
  isProofAddressSubmitted: false,
  isWealthSubmitted: false,
  hasCompany: false,
  companyDocumentCount: 0,
  directors: [],
};
const DONE_DIRECTOR = { isDirector: true, identityDone: true, proofAddressDone: true };
const DONE_OWNER = { isDirector: false, identityDone: true, proofAddressDone: true };

describe('where the wizard opens (spec 000 section 4)', () => {
  it('opens on the intro at 0% until an account type is chosen', () => {
    expect(startPosition({ ...NOTHING, accountType: null })).toEqual({ step: 'intro', progress: 0 });
  });

  it.each<[string, Partial<WizardFlags>, WizardStep, number]>([
    ['nothing submitted', {}, 'address', 25],
    ['kyc done', { isKycSubmitted: true }, 'id-document', 37.5],
    ['kyc and photo id done', { isKycSubmitted: true, isPhotoIdSubmitted: true }, 'selfie', 50],
    [
      'kyc, photo id and selfie done',
      { isKycSubmitted: true, isPhotoIdSubmitted: true, isSelfieSubmitted: true },
      'proof-of-address',
      75,
    ],
    [
      'kyc, id, address and selfie done, wealth not submitted',
      {
        isKycSubmitted: true,
        isPhotoIdSubmitted: true,
        isSelfieSubmitted: true,
        isProofAddressSubmitted: true,
      },
      'wealth-question',
      85,
    ],
    [
      'everything done',
      {
        isKycSubmitted: true,
        isPhotoIdSubmitted: true,
        isSelfieSubmitted: true,
        isProofAddressSubmitted: true,
        isWealthSubmitted: true,
      },
      'account-choice',
      95,
    ],
  ])('Individual, %s: %s at %s%%', (_label, flags, step, progress) => {
    expect(startPosition({ ...NOTHING, ...flags })).toEqual({ step, progress });
  });

  it.each<[string, Partial<WizardFlags>, WizardStep, number]>([
    ['no company yet', {}, 'company-details', 25],
    [
      '3 documents and every director done',
      { hasCompany: true, companyDocumentCount: 3, directors: [DONE_DIRECTOR] },
      'wealth-question',
      85,
    ],
    [
      '3 documents, a director still missing proof of address',
      {
        hasCompany: true,
        companyDocumentCount: 3,
        directors: [DONE_DIRECTOR, { isDirector: false, identityDone: true, proofAddressDone: false }],
      },
      'directors',
      65,
    ],
    ['3 documents and no director yet', { hasCompany: true, companyDocumentCount: 3 }, 'directors', 65],
    [
      '3 documents and owners only, each with both documents',
      { hasCompany: true, companyDocumentCount: 3, directors: [DONE_OWNER, DONE_OWNER] },
      'directors',
      65,
    ],
    [
      'fewer than 3 documents, directors done',
      { hasCompany: true, companyDocumentCount: 2, directors: [DONE_DIRECTOR] },
      'company-documents',
      37.5,
    ],
    ['company saved, no documents, no directors', { hasCompany: true }, 'company-documents', 37.5],
    [
      'everything done',
      { hasCompany: true, companyDocumentCount: 3, directors: [DONE_DIRECTOR], isWealthSubmitted: true },
      'account-choice',
      95,
    ],
  ])('Corporate, %s: %s at %s%%', (_label, flags, step, progress) => {
    expect(startPosition({ ...NOTHING, accountType: 'Corporate', ...flags })).toEqual({ step, progress });
  });
});

describe('Next and Back', () => {
  it('walks an Individual customer through steps 1 to 10 with the yes branch', () => {
    const walk: [WizardStep, number][] = [];
    let step: WizardStep = 'intro';
    while (step !== 'account-choice') {
      const next = nextPosition(step, 'Individual', 'full');
      walk.push([next.step, next.progress]);
      step = next.step;
    }
    expect(walk).toEqual([
      ['account-type', 12.5],
      ['address', 25],
      ['id-document', 37.5],
      ['selfie', 50],
      ['proof-of-address', 75],
      ['wealth-question', 85],
      ['wealth-full', 87.5],
      ['account-choice', 95],
    ]);
  });

  it('sends the no answer to the reduced form, and both forms on to the account choice at 95%', () => {
    expect(nextPosition('wealth-question', 'Individual', 'reduced')).toEqual({
      step: 'wealth-reduced',
      progress: 87.5,
    });
    expect(nextPosition('wealth-reduced', 'Individual')).toEqual({ step: 'account-choice', progress: 95 });
    expect(nextPosition('wealth-full', 'Corporate')).toEqual({ step: 'account-choice', progress: 95 });
  });

  it('refuses to leave the £15,000 question without its answer', () => {
    expect(() => nextPosition('wealth-question', 'Individual')).toThrow(/answer/);
  });

  it('returns from the account choice to the wealth form answered, at 85%', () => {
    expect(backPosition('account-choice', 'Individual', 'full')).toEqual({
      step: 'wealth-full',
      progress: 85,
    });
    expect(backPosition('account-choice', 'Corporate', 'reduced')).toEqual({
      step: 'wealth-reduced',
      progress: 85,
    });
  });

  it('returns from either wealth form to the question', () => {
    expect(backPosition('wealth-reduced', 'Individual')).toEqual({ step: 'wealth-question', progress: 85 });
    expect(backPosition('wealth-full', 'Corporate')).toEqual({ step: 'wealth-question', progress: 85 });
  });

  it('moves the directors screen back to the documents at 37.5% and on to wealth at 85%', () => {
    expect(backPosition('directors', 'Corporate')).toEqual({ step: 'company-documents', progress: 37.5 });
    expect(nextPosition('directors', 'Corporate')).toEqual({ step: 'wealth-question', progress: 85 });
  });

  it('walks a Corporate customer through company, documents, directors and wealth', () => {
    expect(nextPosition('account-type', 'Corporate')).toEqual({ step: 'company-details', progress: 25 });
    expect(nextPosition('company-details', 'Corporate')).toEqual({
      step: 'company-documents',
      progress: 37.5,
    });
    expect(nextPosition('company-documents', 'Corporate')).toEqual({ step: 'directors', progress: 65 });
    expect(backPosition('wealth-question', 'Corporate')).toEqual({ step: 'directors', progress: 65 });
  });

  it('moves back one Individual step at a time, never before the intro', () => {
    expect(backPosition('wealth-question', 'Individual')).toEqual({ step: 'proof-of-address', progress: 75 });
    expect(backPosition('proof-of-address', 'Individual')).toEqual({ step: 'selfie', progress: 50 });
    expect(backPosition('address', 'Individual')).toEqual({ step: 'account-type', progress: 12.5 });
    expect(backPosition('intro', 'Individual')).toEqual({ step: 'intro', progress: 0 });
  });

  it('refuses a step of the other account type', () => {
    expect(() => nextPosition('directors', 'Individual')).toThrow(/not a Individual step/);
    expect(() => backPosition('selfie', 'Corporate')).toThrow(/not a Corporate step/);
  });

  it('only ever shows one of the spec progress values', () => {
    const types: WizardAccountType[] = ['Individual', 'Corporate'];
    const steps: WizardStep[] = [
      'intro',
      'account-type',
      'wealth-question',
      'wealth-full',
      'wealth-reduced',
      'account-choice',
    ];
    for (const accountType of types) {
      for (const step of steps) {
        const positions = [
          backPosition(step, accountType, 'full'),
          ...(step === 'wealth-question' ? [] : [nextPosition(step, accountType, 'full')]),
        ];
        for (const { progress } of positions) expect(WIZARD_PROGRESS_VALUES).toContain(progress);
      }
    }
  });
});

describe('step numbers and directors', () => {
  it('numbers Individual steps 1 to 10 and the Corporate wealth screen 6', () => {
    expect(stepNumber('wealth-reduced', 'Individual')).toBe(9);
    expect(stepNumber('wealth-question', 'Corporate')).toBe(6);
    expect(stepNumber('account-choice', 'Corporate')).toBe(10);
    expect(stepNumber('intro', null)).toBe(1);
  });

  it('counts directors complete only when there is one and each has identity and address', () => {
    expect(areDirectorsComplete([])).toBe(false);
    expect(areDirectorsComplete([DONE_DIRECTOR])).toBe(true);
    expect(
      areDirectorsComplete([
        DONE_DIRECTOR,
        { isDirector: false, identityDone: false, proofAddressDone: true },
      ]),
    ).toBe(false);
  });

  it('does not count owners alone as complete: at least one person must be a director', () => {
    expect(areDirectorsComplete([DONE_OWNER])).toBe(false);
    expect(areDirectorsComplete([DONE_OWNER, DONE_OWNER])).toBe(false);
    expect(areDirectorsComplete([DONE_OWNER, DONE_DIRECTOR])).toBe(true);
    expect(hasCompanyDirector([{ isDirector: false }])).toBe(false);
    expect(hasCompanyDirector([{ isDirector: false }, { isDirector: true }])).toBe(true);
  });

  it('reads status 1 as owner only, 2 as director only and 3 as both (spec 000 section 9)', () => {
    expect([1, 2, 3].map(isOwnerStatus)).toEqual([true, false, true]);
    expect([1, 2, 3].map(isDirectorStatus)).toEqual([false, true, true]);
  });
});
