/**
 * The verification wizard's route through its steps (spec 000 section 4): where a customer
 * starts from what they have already submitted, and where Next and Back lead, each with the
 * progress bar's value. Pure, so the web and its tests share one reading of the spec.
 */

/** Every value the progress bar takes (spec 000 section 2). */
export const WIZARD_PROGRESS_VALUES = [0, 12.5, 25, 37.5, 50, 62.5, 65, 75, 85, 87.5, 95] as const;
export type WizardProgress = (typeof WIZARD_PROGRESS_VALUES)[number];

export type WizardStep =
  | 'intro'
  | 'account-type'
  // Individual
  | 'address'
  | 'id-document'
  | 'selfie'
  | 'proof-of-address'
  // Corporate
  | 'company-details'
  | 'company-documents'
  | 'directors'
  // Both
  | 'wealth-question'
  | 'wealth-full'
  | 'wealth-reduced'
  | 'account-choice';

export type WizardAccountType = 'Individual' | 'Corporate';

export type WizardPosition = { step: WizardStep; progress: WizardProgress };

/** The £15,000 question's answer picks the follow-up form: yes the full one, no the reduced one. */
export type WealthBranch = 'full' | 'reduced';

/** Director or owner status (spec 000 section 9): 1 owner only, 2 director only, 3 both. */
export const DIRECTOR_STATUS = { owner: 1, director: 2, both: 3 } as const;

/** Status 1 or 3: the person is declared a (beneficial) owner. */
export function isOwnerStatus(status: number): boolean {
  return status === DIRECTOR_STATUS.owner || status === DIRECTOR_STATUS.both;
}

/** Status 2 or 3: the person is declared a director. */
export function isDirectorStatus(status: number): boolean {
  return status === DIRECTOR_STATUS.director || status === DIRECTOR_STATUS.both;
}

/** A person in the company's table: their role, and whether their two documents are in. */
export type DirectorProgress = { isDirector: boolean; identityDone: boolean; proofAddressDone: boolean };

/** What the wizard reads from the user to know how far they got. */
export type WizardFlags = {
  accountType: WizardAccountType | null;
  isKycSubmitted: boolean;
  isPhotoIdSubmitted: boolean;
  isSelfieSubmitted: boolean;
  isProofAddressSubmitted: boolean;
  isWealthSubmitted: boolean;
  /** Corporate: the company details were saved. */
  hasCompany: boolean;
  /** Corporate: how many of the three company documents (COI, articles, proof of address) are on file. */
  companyDocumentCount: number;
  directors: readonly DirectorProgress[];
};

export const COMPANY_DOCUMENT_COUNT = 3;

/** The number shown beside each step (Corporate skips 6–9 of the Individual numbering except its wealth screen). */
const STEP_NUMBERS: Record<WizardAccountType, Record<WizardStep, number>> = {
  Individual: {
    intro: 1,
    'account-type': 2,
    address: 3,
    'id-document': 4,
    selfie: 5,
    'proof-of-address': 6,
    'wealth-question': 7,
    'wealth-full': 8,
    'wealth-reduced': 9,
    'account-choice': 10,
    'company-details': 3,
    'company-documents': 4,
    directors: 5,
  },
  Corporate: {
    intro: 1,
    'account-type': 2,
    'company-details': 3,
    'company-documents': 4,
    directors: 5,
    'wealth-question': 6,
    'wealth-full': 6,
    'wealth-reduced': 6,
    'account-choice': 10,
    address: 3,
    'id-document': 4,
    selfie: 5,
    'proof-of-address': 6,
  },
};

export function stepNumber(step: WizardStep, accountType: WizardAccountType | null): number {
  return STEP_NUMBERS[accountType ?? 'Individual'][step];
}

/**
 * Where a step sits on the bar when reached going forward, and when the wizard opens on it
 * (the start values of spec 000 section 4). Back usually lands on the same value; the
 * exceptions are in `backPosition`.
 */
const STEP_PROGRESS: Record<WizardAccountType, Record<WizardStep, WizardProgress>> = {
  Individual: {
    intro: 0,
    'account-type': 12.5,
    address: 25,
    'id-document': 37.5,
    selfie: 50,
    'proof-of-address': 75,
    'wealth-question': 85,
    'wealth-full': 87.5,
    'wealth-reduced': 87.5,
    'account-choice': 95,
    'company-details': 25,
    'company-documents': 37.5,
    directors: 65,
  },
  Corporate: {
    intro: 0,
    'account-type': 12.5,
    'company-details': 25,
    'company-documents': 37.5,
    directors: 65,
    'wealth-question': 85,
    'wealth-full': 87.5,
    'wealth-reduced': 87.5,
    'account-choice': 95,
    address: 25,
    'id-document': 37.5,
    selfie: 50,
    'proof-of-address': 75,
  },
};

function at(step: WizardStep, accountType: WizardAccountType): WizardPosition {
  return { step, progress: STEP_PROGRESS[accountType][step] };
}

/**
 * A company is run by someone: among its people at least one must be a director (status 2 or
 * 3). Owners alone, or nobody, do not let the company past the directors step.
 */
export function hasCompanyDirector(people: readonly Pick<DirectorProgress, 'isDirector'>[]): boolean {
  return people.some((person) => person.isDirector);
}

/** The directors step is done: at least one director, and everyone listed has identity and address. */
export function areDirectorsComplete(directors: readonly DirectorProgress[]): boolean {
  return hasCompanyDirector(directors) && directors.every((d) => d.identityDone && d.proofAddressDone);
}

/**
 * The step the wizard opens on (spec 000 section 4). No account type yet: the intro. Individual:
 * the first step not yet submitted, in the order details, photo ID, selfie, proof of address,
 * source of wealth, then the account choice. Corporate: company details, then its three
 * documents, then the directors, then source of wealth, then the account choice.
 */
export function startPosition(flags: WizardFlags): WizardPosition {
  const { accountType } = flags;
  if (accountType === null) return at('intro', 'Individual');
  if (accountType === 'Individual') {
    if (!flags.isKycSubmitted) return at('address', accountType);
    if (!flags.isPhotoIdSubmitted) return at('id-document', accountType);
    if (!flags.isSelfieSubmitted) return at('selfie', accountType);
    if (!flags.isProofAddressSubmitted) return at('proof-of-address', accountType);
    if (!flags.isWealthSubmitted) return at('wealth-question', accountType);
    return at('account-choice', accountType);
  }
  if (!flags.hasCompany) return at('company-details', accountType);
  if (flags.companyDocumentCount < COMPANY_DOCUMENT_COUNT) return at('company-documents', accountType);
  if (!areDirectorsComplete(flags.directors)) return at('directors', accountType);
  if (!flags.isWealthSubmitted) return at('wealth-question', accountType);
  return at('account-choice', accountType);
}

const INDIVIDUAL_ORDER: readonly WizardStep[] = [
  'intro',
  'account-type',
  'address',
  'id-document',
  'selfie',
  'proof-of-address',
  'wealth-question',
];
const CORPORATE_ORDER: readonly WizardStep[] = [
  'intro',
  'account-type',
  'company-details',
  'company-documents',
  'directors',
  'wealth-question',
];

function linearOrder(accountType: WizardAccountType): readonly WizardStep[] {
  return accountType === 'Individual' ? INDIVIDUAL_ORDER : CORPORATE_ORDER;
}

function wealthForm(branch: WealthBranch): WizardStep {
  return branch === 'full' ? 'wealth-full' : 'wealth-reduced';
}

/**
 * Next from a step. The £15,000 question needs its answer (`branch`); from the intro the account
 * type is not chosen yet, and choosing it on step 2 (the call that saves it) passes it here.
 */
export function nextPosition(
  step: WizardStep,
  accountType: WizardAccountType,
  branch?: WealthBranch,
): WizardPosition {
  if (step === 'wealth-question') {
    if (!branch) throw new Error('The source-of-wealth question needs its answer to move on');
    return at(wealthForm(branch), accountType);
  }
  if (step === 'wealth-full' || step === 'wealth-reduced' || step === 'account-choice') {
    return at('account-choice', accountType);
  }
  const order = linearOrder(accountType);
  const index = order.indexOf(step);
  const next = index < 0 ? undefined : order[index + 1];
  if (!next) throw new Error(`${step} is not a ${accountType} step`);
  return at(next, accountType);
}

/**
 * Back from a step. From the account choice it returns to the wealth form answered (spec: step 8
 * or 9 at 85%); from either wealth form to the question; otherwise one step back in order.
 */
export function backPosition(
  step: WizardStep,
  accountType: WizardAccountType,
  branch: WealthBranch = 'reduced',
): WizardPosition {
  if (step === 'account-choice') return { step: wealthForm(branch), progress: 85 };
  if (step === 'wealth-full' || step === 'wealth-reduced') return at('wealth-question', accountType);
  const order = linearOrder(accountType);
  const index = order.indexOf(step);
  if (index < 0) throw new Error(`${step} is not a ${accountType} step`);
  return at(order[Math.max(index - 1, 0)] ?? 'intro', accountType);
}
