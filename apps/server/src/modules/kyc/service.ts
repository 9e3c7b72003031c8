import { createHash } from 'node:crypto';
import {
  AppError,
  KYC_TEXTS,
  type AccountTypeBody,
  type Company,
  type CompanyBody,
  type Director,
  type DirectorBody,
  type DirectorUpdateBody,
  type Document,
  type DocumentKey,
  type DocumentUploadParameters,
  type IdProofFields,
  type KycAnswers,
  type KycBody,
  type ScreeningTrigger,
  type UserDetailsBody,
  type VerificationState,
  type YesNo,
  isUndeclaredOwner,
} from '@florin/contracts';
import { hasCompanyDirector, isDirectorStatus, isOwnerStatus } from '@florin/domain';
import type { Kysely, Transaction } from 'kysely';
import type { FileStorage } from '../../adapters/storage/index.js';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { checkUpload, type CheckedUpload } from '../../security/uploads.js';
import type { TradingService } from '../trading/service.js';
import type { UpgradeRecorder } from '../upgrades/service.js';
import {
  COMPANY_KEYS,
  DIRECTOR_KEYS,
  INDIVIDUAL_KEYS,
  directorFlags,
  isEveryStepSubmitted,
  keysReplacedBy,
} from './flags.js';
import type {
  AnswersRow,
  AnswersValues,
  CompanyRow,
  DirectorRow,
  DocumentRow,
  KycRepository,
  KycUserRow,
} from './repository.js';
import { loadVerification, toCurrent } from './verification.js';

/** A file as it arrived in a multipart request, before any check. */
export type IncomingFile = { filename: string; bytes: Buffer };

/** A stored document's bytes and how to hand them out (always as an attachment). */
export type DocumentFile = { bytes: Buffer; contentType: string; filename: string };

export type KycServiceDeps = {
  db: Kysely<DB>;
  repository: KycRepository;
  storage: FileStorage;
  /** The mailbox the upload-failure dialog names (COMPLIANCE_EMAIL). */
  complianceEmail: string;
  /** Records each move to the trading platform and tells staff; unset, nothing is recorded (unit tests). */
  upgrades?: UpgradeRecorder;
  /**
   * Screens the customer against the sanctions list (issue 13): when they submit verification, and
   * after it on every change to a screened detail. Unset: no screening (unit tests).
   */
  sanctions?: { screenCustomer(userId: number, trigger: ScreeningTrigger): Promise<unknown> };
  /** Who has traded more than £15,000 this calendar year: the source-of-wealth answers must then say so. */
  trading: Pick<TradingService, 'listOverSourceOfWealthThreshold'>;
};

const LIVE_STATUS = 1;
const ID_PROOF_KEYS: Record<IdProofFields['doc_type'], readonly DocumentKey[]> = {
  passport: ['passport'],
  national_id: ['national_id_front'],
  // front then back, in the order the files arrive
  driver_license: ['id_front', 'id_back'],
  proof_selfie: ['proof_selfie'],
  proof_address: ['proof_address'],
};

const DIRECTOR_DOCUMENT_KEYS = {
  passport: 'passport',
  national_id: 'national_id_front',
  driver_license_front: 'id_front',
  driver_license_back: 'id_back',
  proof_address: 'proof_address',
} as const satisfies Record<string, DocumentKey>;
export type DirectorDocumentType = keyof typeof DIRECTOR_DOCUMENT_KEYS;

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { [field]: [message] });
}

function toDocument(row: DocumentRow): Document {
  return {
    id: Number(row.id),
    key: row.key,
    is_admin_approved: row.status === 'approved' ? 1 : row.status === 'declined' ? -1 : 0,
    disapprove_note: row.disapprove_note,
    director_id: row.director_id,
    content_type: row.content_type,
    created_at: row.created_at.toISOString(),
  };
}

function toAnswers(row: AnswersRow): KycAnswers {
  const yesNo = (value: number): YesNo => (value === 1 ? 1 : 0);
  const optionalYesNo = (value: number | null): YesNo | null => (value === null ? null : yesNo(value));
  return {
    trades_over_threshold: yesNo(row.trades_over_threshold),
    aware_of_risk: yesNo(row.aware_of_risk),
    initial_investment: row.initial_investment,
    annual_income: row.annual_income,
    net_worth: row.net_worth,
    investment_portfolio: row.investment_portfolio,
    source_of_wealth: row.source_of_wealth,
    experience: row.experience,
    investment_trades: row.investment_trades,
    offense: optionalYesNo(row.offense),
    offense_details: row.offense_details,
    criminal: optionalYesNo(row.criminal),
    criminal_details: row.criminal_details,
    caution: optionalYesNo(row.caution),
    caution_details: row.caution_details,
    ccj: optionalYesNo(row.ccj),
    ccj_details: row.ccj_details,
  };
}

/**
 * The answers as stored: the no branch asks only about risk, so anything of
 * the yes branch it carried is dropped; a declaration's details only when it
 * was answered Yes.
 */
function toAnswersValues(body: KycBody): AnswersValues {
  // The contract gives the branch (as sent, or read from the fields sent) and requires the risk answer.
  const trades = body.trades_over_threshold;
  const isYesBranch = trades === 1;
  const pick = <T>(value: T | undefined): T | null => (isYesBranch && value !== undefined ? value : null);
  const declaration = (flag: YesNo | undefined, details: string | undefined) => ({
    flag: pick(flag),
    details: isYesBranch && flag === 1 ? (details ?? null) : null,
  });
  const offense = declaration(body.offense, body.offense_details);
  const criminal = declaration(body.criminal, body.criminal_details);
  const caution = declaration(body.caution, body.caution_details);
  const ccj = declaration(body.ccj, body.ccj_details);
  return {
    trades_over_threshold: trades,
    aware_of_risk: body.aware_of_risk ?? 0,
    initial_investment: pick(body.initial_investment),
    annual_income: pick(body.annual_income),
    net_worth: pick(body.net_worth),
    investment_portfolio: pick(body.investment_portfolio),
    source_of_wealth: pick(body.source_of_wealth),
    experience: pick(body.experience),
    investment_trades: pick(body.investment_trades),
    offense: offense.flag,
    offense_details: offense.details,
    criminal: criminal.flag,
    criminal_details: criminal.details,
    caution: caution.flag,
    caution_details: caution.details,
    ccj: ccj.flag,
    ccj_details: ccj.details,
  };
}

/** "30", "30.5" or "30.25" percent as hundredths (3000, 3050, 3025): exact, no floating point. */
export function percentToHundredths(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/**
 * The name the file had on the customer's device, safe to keep and to show:
 * no folders, no control or markup characters, at most 100 characters
 * (keeping the end, where the extension is).
 */
export function sanitiseFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return (cleaned || 'document').slice(-100);
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const details = error as { code?: string; constraint?: string; message?: string };
  return (
    details.code === '23505' &&
    (details.constraint === constraint || (details.message ?? '').includes(constraint))
  );
}

/** 422 when the body would change a field that is locked now, with the text under each such field. */
function refuseLockedChanges(text: string, isChanged: Record<string, boolean>): void {
  const fields = Object.keys(isChanged).filter((field) => isChanged[field]);
  if (fields.length > 0)
    throw new AppError('VALIDATION_FAILED', text, Object.fromEntries(fields.map((field) => [field, [text]])));
}

function addressOf(value: {
  country: string | null;
  address: string | null;
  city: string | null;
  zip: string | null;
}) {
  return [value.country, value.address, value.city, value.zip].map((part) => part ?? '').join('\u0000');
}

/**
 * The customer's side of identity verification (spec 000 sections 2-9 and
 * DECISIONS.md "Who may do what"): details, source of wealth, the company and
 * its directors and owners, every upload, and the flags GET /api/v1/user
 * shows. Staff decisions live in the back office; the functions it shares
 * with this module are at the end.
 */
export function createKycService(deps: KycServiceDeps) {
  const { db, repository, storage } = deps;

  async function lockUser(trx: Transaction<DB>, userId: number): Promise<KycUserRow> {
    const user = await repository.findUser(userId, trx, { forUpdate: true });
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  /** The wizard is finished (staff review from here) or the account is live: what was declared is being checked. */
  function isHandedIn(user: KycUserRow): boolean {
    return user.status === LIVE_STATUS || user.verification_completed_at !== null;
  }

  /**
   * After hand-in, a change to a company's people may not leave it without a director when it has
   * one (DECISIONS 2026-11-29): the new director is added first. Before it the directors step
   * holds the wizard until there is one again. `status` null: the person is removed.
   */
  async function refuseLosingLastDirector(
    trx: Kysely<DB>,
    user: KycUserRow,
    companyId: number,
    change: { directorId: number; status: number | null },
  ): Promise<void> {
    if (!isHandedIn(user)) return;
    const people = await repository.listDirectors(companyId, trx);
    const after = people.flatMap((person) => {
      const status = person.id === change.directorId ? change.status : person.status;
      return status === null ? [] : [{ isDirector: isDirectorStatus(status) }];
    });
    const before = people.map((person) => ({ isDirector: isDirectorStatus(person.status) }));
    if (hasCompanyDirector(before) && !hasCompanyDirector(after))
      throw new AppError('CONFLICT', KYC_TEXTS.lastDirector);
  }

  function requireAccountType(user: KycUserRow): 'Individual' | 'Corporate' {
    if (!user.account_type) throw new AppError('CONFLICT', KYC_TEXTS.accountTypeMissing);
    return user.account_type;
  }

  /** A Corporate customer's company; anyone else has none to show or change. */
  async function requireCompany(user: KycUserRow, executor: Kysely<DB> = db): Promise<CompanyRow> {
    const company =
      user.account_type === 'Corporate' ? await repository.findCompany(user.id, executor) : undefined;
    if (!company) throw new AppError('NOT_FOUND');
    return company;
  }

  async function isOverSourceOfWealthThreshold(userId: number, executor: Kysely<DB>): Promise<boolean> {
    return (await deps.trading.listOverSourceOfWealthThreshold([userId], executor)).length > 0;
  }

  async function requireUser(userId: number, executor: Kysely<DB> = db): Promise<KycUserRow> {
    const user = await repository.findUser(userId, executor);
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  /** Once verification is submitted, a change to a screened detail screens the customer again. */
  async function rescreen(user: KycUserRow, trigger: ScreeningTrigger): Promise<void> {
    if (user.verification_completed_at) await deps.sanctions?.screenCustomer(user.id, trigger);
  }

  function toDirector(row: DirectorRow, documents: readonly DocumentRow[]): Director {
    const own = documents.filter((document) => document.director_id === row.id);
    return {
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      shareHolding: row.share_holding,
      address: row.address,
      city: row.city,
      zip: row.zip,
      country: row.country,
      phone: row.phone,
      birthdate: row.birthdate,
      owner: isOwnerStatus(row.status) ? 1 : 0,
      director: isDirectorStatus(row.status) ? 1 : 0,
      status: row.status,
      ...directorFlags(own.map(toCurrent)),
      documents: own.map(toDocument),
    };
  }

  async function loadCompany(company: CompanyRow, executor: Kysely<DB> = db): Promise<Company> {
    const [directors, documents] = await Promise.all([
      repository.listDirectors(company.id, executor),
      repository.listCurrentDocuments(company.user_id, executor),
    ]);
    return {
      id: company.id,
      name: company.name,
      company_number: company.company_number,
      address: company.address,
      city: company.city,
      country: company.country,
      zip: company.zip,
      directors: directors.map((director) => toDirector(director, documents)),
    };
  }

  async function loadDirector(company: CompanyRow, directorId: number): Promise<Director> {
    const director = await repository.findDirector(company.id, directorId);
    if (!director) throw new AppError('NOT_FOUND');
    return toDirector(director, await repository.listCurrentDocuments(company.user_id));
  }

  async function getVerificationState(userId: number, executor: Kysely<DB> = db): Promise<VerificationState> {
    const { user, answers, company, directors, documents, flags } = await loadVerification(
      repository,
      userId,
      executor,
    );
    const own = documents.filter((document) => document.director_id === null);
    return {
      country: user.country,
      address: user.address,
      city: user.city,
      zip: user.zip,
      phone: user.phone,
      birthdate: user.birthdate,
      nationality: user.nationality,
      tax_residence: user.tax_residence,
      tax_id: user.tax_id,
      is_kyc_submitted: flags.is_kyc_submitted,
      is_wealth_submitted: flags.is_wealth_submitted,
      is_photo_id_submitted: flags.is_photo_id_submitted,
      is_proof_address_submitted: flags.is_proof_address_submitted,
      is_selfie_submitted: flags.is_selfie_submitted,
      is_sow_reset: user.is_sow_reset === 1 ? 1 : 0,
      sow_over_threshold:
        user.is_sow_reset === 1 ? ((await isOverSourceOfWealthThreshold(userId, executor)) ? 1 : 0) : null,
      ico_confirmed: user.ico_confirmed === 1 ? 1 : 0,
      account_tiers_class: user.account_tiers_class,
      verification_completed: user.verification_completed_at ? 1 : 0,
      denied_documents: flags.denied_documents,
      documents: own.map(toDocument),
      kyc: answers ? toAnswers(answers) : null,
      company: company
        ? {
            id: company.id,
            name: company.name,
            company_number: company.company_number,
            address: company.address,
            city: company.city,
            country: company.country,
            zip: company.zip,
            directors: directors.map((director) => toDirector(director, documents)),
          }
        : null,
      compliance_email: deps.complianceEmail,
    };
  }

  /**
   * Checks every file first (nothing is stored when one fails), stores them,
   * then in one transaction supersedes what they replace and records them.
   * When the transaction fails the stored files are deleted again, so a
   * file without its row never stays behind.
   */
  async function storeDocuments(
    userId: number,
    target: { directorId: number | null; companyId?: number },
    uploads: readonly { key: DocumentKey; file: IncomingFile }[],
  ): Promise<DocumentRow[]> {
    const checked: { key: DocumentKey; name: string; upload: CheckedUpload }[] = [];
    for (const { key, file } of uploads) {
      checked.push({ key, name: sanitiseFileName(file.filename), upload: await checkUpload(file) });
    }
    const storageKeys: string[] = [];
    try {
      for (const { upload } of checked) storageKeys.push(await storage.put(upload.bytes, upload.contentType));
      return await db.transaction().execute(async (trx) => {
        // The customer first, then documents: the back office's decisions lock in the same order.
        await lockUser(trx, userId);
        if (target.directorId !== null && target.companyId !== undefined) {
          const director = await repository.findDirector(target.companyId, target.directorId, trx, {
            forUpdate: true,
          });
          if (!director) throw new AppError('NOT_FOUND');
        }
        await repository.supersedeDocuments(
          userId,
          target.directorId,
          keysReplacedBy(checked.map(({ key }) => key)),
          trx,
        );
        const rows: DocumentRow[] = [];
        for (const [index, { key, name, upload }] of checked.entries()) {
          rows.push(
            await repository.insertDocument(
              {
                user_id: userId,
                director_id: target.directorId,
                key,
                storage_key: storageKeys[index] as string,
                content_type: upload.contentType,
                original_name: name,
                size_bytes: upload.bytes.length,
                sha256: createHash('sha256').update(upload.bytes).digest('hex'),
              },
              trx,
            ),
          );
        }
        return rows;
      });
    } catch (error) {
      await Promise.allSettled(storageKeys.map((key) => storage.delete(key)));
      if (isUniqueViolation(error, 'kyc_documents_current')) throw new AppError('CONFLICT');
      throw error;
    }
  }

  /** Which of the customer's own documents they may upload: the Individual's or the company's. */
  async function checkOwnDocumentKeys(user: KycUserRow, keys: readonly DocumentKey[]): Promise<void> {
    const isCompanyDocument = keys.some((key) => (COMPANY_KEYS as readonly DocumentKey[]).includes(key));
    if (isCompanyDocument) {
      await requireCompany(user);
      return;
    }
    const accountType = requireAccountType(user);
    if (
      accountType !== 'Individual' ||
      !keys.every((key) => (INDIVIDUAL_KEYS as readonly DocumentKey[]).includes(key))
    ) {
      throw new AppError('CONFLICT', KYC_TEXTS.documentNotForAccount);
    }
  }

  function requireFileCount(files: readonly IncomingFile[], count: number): void {
    if (files.length === count) return;
    throw invalid('file', count === 2 ? KYC_TEXTS.twoImages : KYC_TEXTS.oneFile);
  }

  async function directorOf(
    user: KycUserRow,
    directorId: number,
  ): Promise<{ company: CompanyRow; director: DirectorRow }> {
    const company = await requireCompany(user);
    const director = await repository.findDirector(company.id, directorId);
    if (!director) throw new AppError('NOT_FOUND');
    return { company, director };
  }

  /** The total held by every director and owner may not pass 100 %. */
  async function checkShareHolding(
    trx: Transaction<DB>,
    companyId: number,
    directorId: number | null,
    shareHolding: string,
  ): Promise<void> {
    const others = await repository.sumShareHoldingHundredths(companyId, directorId, trx);
    if (others + percentToHundredths(shareHolding) > 100_00n) {
      throw invalid('shareHolding', KYC_TEXTS.shareHoldingTotal);
    }
  }

  function directorValues(body: DirectorBody) {
    return {
      first_name: body.firstName,
      last_name: body.lastName,
      share_holding: body.shareHolding,
      address: body.address,
      city: body.city,
      zip: body.zip,
      country: body.country,
      phone: body.phone,
      birthdate: body.birthdate,
      status: body.status,
    };
  }

  async function readStoredFile(row: DocumentRow): Promise<DocumentFile> {
    const bytes = await storage.get(row.storage_key);
    // A row whose file is gone is a fault on our side, not the caller's.
    if (!bytes) throw new Error(`kyc document ${row.id}: file ${row.storage_key} is missing from storage`);
    return { bytes, contentType: row.content_type, filename: row.original_name };
  }

  return {
    getVerificationState,

    /**
     * The address, contact and tax details (Individual step 3). Once the wizard
     * is finished (staff check the ID against them) or the account is live, phone,
     * address and tax details may change but not date of birth or nationality; a
     * new address makes the current proof of address superseded, so a new one is
     * uploaded and reviewed.
     */
    async saveDetails(userId: number, body: UserDetailsBody): Promise<void> {
      const user = await db.transaction().execute(async (trx) => {
        const user = await lockUser(trx, userId);
        requireAccountType(user);
        if (isHandedIn(user)) {
          refuseLockedChanges(KYC_TEXTS.birthdateLocked, {
            birthdate: user.birthdate !== null && user.birthdate !== body.birthdate,
            nationality: user.nationality !== null && user.nationality !== body.nationality,
          });
        }
        const isNewAddress = user.details_submitted_at !== null && addressOf(user) !== addressOf(body);
        await repository.updateUser(
          userId,
          {
            country: body.country,
            address: body.address,
            city: body.city,
            zip: body.zip,
            phone: body.phone,
            birthdate: body.birthdate,
            nationality: body.nationality,
            tax_residence: body.tax_residence,
            tax_id: body.tax_id,
            details_submitted_at: user.details_submitted_at ?? new Date(),
          },
          trx,
        );
        if (isNewAddress) await repository.supersedeDocuments(userId, null, ['proof_address'], trx);
        return user;
      });
      // The date of birth is screened (the address is not: the list is matched by name and birth).
      if (user.birthdate !== body.birthdate) await rescreen(user, 'details_changed');
    },

    /**
     * Individual or Corporate while nothing is submitted (step 2); Instant or
     * Trade once every step is (step 10), which finishes the wizard. Afterwards
     * Trade upgrades a live instant customer to the trading platform (issue 9);
     * going back to Instant goes through support.
     */
    async setAccountType(userId: number, body: AccountTypeBody): Promise<void> {
      // Set inside the transaction when this call finishes the wizard.
      const wizard = { isSubmitted: false };
      const upgradeId = await db.transaction().execute(async (trx): Promise<string | null> => {
        const user = await lockUser(trx, userId);
        if (body.account_type === 'Individual' || body.account_type === 'Corporate') {
          if (user.account_type === body.account_type) return null;
          if (user.account_type !== null && (await repository.hasSubmittedAnything(userId, trx))) {
            throw new AppError('CONFLICT', KYC_TEXTS.accountTypeLocked);
          }
          await repository.updateUser(userId, { account_type: body.account_type }, trx);
          return null;
        }
        const isTrade = body.account_type === 'Trade';
        const platform = isTrade ? 2 : 1;
        const trading = { platform: 2, account_tiers_class: 4, ico_confirmed: 1 } as const;
        const recordUpgrade = () =>
          deps.upgrades?.recordUpgrade(trx, { userId, fromPlatform: user.platform, toPlatform: 2 }) ?? null;
        if (user.verification_completed_at) {
          // A repeated choice (a retry, a second tab) is fine and records nothing.
          if (user.platform === platform) return null;
          if (!isTrade) throw new AppError('CONFLICT', KYC_TEXTS.accountTypeLocked);
          // As trading itself: a customer not live, or on hold, cannot start trading.
          if (user.status !== LIVE_STATUS || user.block_status === ON_HOLD)
            throw new AppError('ACCOUNT_NOT_LIVE');
          await repository.updateUser(userId, trading, trx);
          return recordUpgrade();
        }
        if (!user.account_type) throw new AppError('CONFLICT', KYC_TEXTS.stepsIncomplete);
        const state = await getVerificationState(userId, trx);
        if (!isEveryStepSubmitted(state)) throw new AppError('CONFLICT', KYC_TEXTS.stepsIncomplete);
        await repository.updateUser(
          userId,
          { ...(isTrade ? trading : { platform }), verification_completed_at: new Date() },
          trx,
        );
        wizard.isSubmitted = true;
        // Staff see every new trading account, whether chosen in the wizard or later.
        return isTrade && user.platform !== 2 ? recordUpgrade() : null;
      });
      if (upgradeId !== null) void deps.upgrades?.notifyStaff(upgradeId);
      // Onboarding: the customer, or the company with its directors and owners, is screened once submitted.
      if (wizard.isSubmitted) await deps.sanctions?.screenCustomer(userId, 'onboarding');
    },

    async confirmIco(userId: number, confirmed: boolean): Promise<void> {
      await repository.updateUser(userId, { ico_confirmed: confirmed ? 1 : 0 });
    },

    /** The first answers to the source-of-wealth questions. */
    async createAnswers(userId: number, body: KycBody): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await lockUser(trx, userId);
        requireAccountType(user);
        if (await repository.findAnswers(userId, trx)) throw new AppError('CONFLICT');
        await repository.insertAnswers(userId, toAnswersValues(body), trx);
        if (user.is_sow_reset === 1) await repository.updateUser(userId, { is_sow_reset: 0 }, trx);
      });
    },

    /**
     * New answers: going back in the wizard, or after staff reset them (sow_reset 0 clears the
     * reset). Once the wizard is handed in, staff review the answers (and once live, have), so
     * only a reset opens them again: the same moment the date of birth locks.
     */
    async updateAnswers(userId: number, body: KycBody): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await lockUser(trx, userId);
        if (isHandedIn(user) && user.is_sow_reset !== 1) {
          throw new AppError('CONFLICT', KYC_TEXTS.answersLocked);
        }
        // Spec 000 section 9: who has traded more than £15,000 this year cannot answer that they will not.
        if (body.trades_over_threshold === 0 && (await isOverSourceOfWealthThreshold(userId, trx))) {
          throw new AppError('VALIDATION_FAILED', KYC_TEXTS.overThresholdAnswer, {
            trades_over_threshold: [KYC_TEXTS.overThresholdAnswer],
          });
        }
        if (!(await repository.findAnswers(userId, trx))) throw new AppError('CONFLICT');
        await repository.updateAnswers(userId, toAnswersValues(body), trx);
        if (body.sow_reset === 0) await repository.updateUser(userId, { is_sow_reset: 0 }, trx);
      });
    },

    /**
     * Creates or changes the Corporate customer's company. A registered
     * number belongs to one customer; a new registered address makes the
     * corporate proof of address superseded. Once the wizard is handed in
     * (staff check the certificate against them) or the account is live, the
     * company's name, number and country change only through support, as the
     * customer's date of birth and the directors' names do.
     */
    async saveCompany(userId: number, body: CompanyBody): Promise<Company> {
      try {
        const saved = await db.transaction().execute(async (trx) => {
          const user = await lockUser(trx, userId);
          if (user.account_type !== 'Corporate') throw new AppError('NOT_FOUND');
          if (await repository.findCompanyWithNumber(body.country, body.company_number, userId, trx)) {
            throw new AppError('COMPANY_NUMBER_TAKEN', KYC_TEXTS.companyNumberTaken);
          }
          const existing = await repository.findCompany(userId, trx, { forUpdate: true });
          if (!existing) {
            const company = await loadCompany(await repository.insertCompany(userId, body, trx), trx);
            return { company, user, isRenamed: false };
          }
          if (isHandedIn(user)) {
            refuseLockedChanges(KYC_TEXTS.companyLocked, {
              name: existing.name !== body.name,
              company_number: existing.company_number !== body.company_number,
              country: existing.country !== body.country,
            });
          }
          const updated = await repository.updateCompany(existing.id, body, trx);
          if (addressOf(existing) !== addressOf(body)) {
            await repository.supersedeDocuments(userId, null, ['cproof_address'], trx);
          }
          return { company: await loadCompany(updated, trx), user, isRenamed: existing.name !== body.name };
        });
        // The company's name is screened: a new one is screened again.
        if (saved.isRenamed) await rescreen(saved.user, 'company_changed');
        return saved.company;
      } catch (error) {
        if (isUniqueViolation(error, 'companies_number')) {
          throw new AppError('COMPANY_NUMBER_TAKEN', KYC_TEXTS.companyNumberTaken);
        }
        throw error;
      }
    },

    async createDirector(userId: number, body: DirectorBody): Promise<Director> {
      const user = await requireUser(userId);
      const company = await requireCompany(user);
      const directorId = await db.transaction().execute(async (trx) => {
        // One change to the company's directors at a time, so two additions cannot pass 100 % together.
        await repository.findCompany(userId, trx, { forUpdate: true });
        await checkShareHolding(trx, company.id, null, body.shareHolding);
        return repository.insertDirector(company.id, directorValues(body), trx);
      });
      await rescreen(user, 'directors_changed');
      return loadDirector(company, directorId);
    },

    /**
     * Once the wizard is finished (staff check each director's ID against what was declared) or the
     * account is live, a director's name and date of birth change only through support, as the
     * customer's own date of birth does; a new address makes the director's proof of address
     * superseded, so a new one is uploaded and reviewed. Someone else in the role is a new director.
     * The spec's payload has no shareholding: without one the stored share is kept, and still
     * counts for the 25 % owner rule with the status sent.
     */
    async updateDirector(userId: number, directorId: number, body: DirectorUpdateBody): Promise<Director> {
      const company = await requireCompany(await requireUser(userId));
      const user = await db.transaction().execute(async (trx) => {
        // The customer, then the company: the order saveCompany locks them in.
        const user = await lockUser(trx, userId);
        await repository.findCompany(userId, trx, { forUpdate: true });
        const existing = await repository.findDirector(company.id, directorId, trx);
        if (!existing) throw new AppError('NOT_FOUND');
        if (isHandedIn(user)) {
          refuseLockedChanges(KYC_TEXTS.directorLocked, {
            firstName: existing.first_name !== body.firstName,
            lastName: existing.last_name !== body.lastName,
            birthdate: existing.birthdate !== body.birthdate,
          });
        }
        const shareHolding = body.shareHolding ?? existing.share_holding;
        if (isUndeclaredOwner(shareHolding, body.status))
          throw invalid('shareHolding', KYC_TEXTS.ownerRequired);
        await refuseLosingLastDirector(trx, user, company.id, { directorId, status: body.status });
        await checkShareHolding(trx, company.id, directorId, shareHolding);
        await repository.updateDirector(directorId, directorValues({ ...body, shareHolding }), trx);
        if (addressOf(existing) !== addressOf(body)) {
          await repository.supersedeDocuments(userId, directorId, ['proof_address'], trx);
        }
        return user;
      });
      await rescreen(user, 'directors_changed');
      return loadDirector(company, directorId);
    },

    /** Kept with their documents as a record of what was declared, but no longer counted. */
    async deleteDirector(userId: number, directorId: number): Promise<void> {
      const user = await requireUser(userId);
      const company = await requireCompany(user);
      await db.transaction().execute(async (trx) => {
        const locked = await lockUser(trx, userId);
        // The company's people change one at a time (createDirector and updateDirector lock it too).
        await repository.findCompany(userId, trx, { forUpdate: true });
        if (!(await repository.findDirector(company.id, directorId, trx, { forUpdate: true }))) {
          throw new AppError('NOT_FOUND');
        }
        await refuseLosingLastDirector(trx, locked, company.id, { directorId, status: null });
        await repository.softDeleteDirector(directorId, trx);
        await repository.supersedeDirectorDocuments(directorId, trx);
      });
    },

    /** POST /user/id-proof: an identity document, the selfie or a proof of address, the customer's or a director's. */
    async uploadIdProof(
      userId: number,
      fields: IdProofFields,
      files: readonly IncomingFile[],
    ): Promise<Document[]> {
      const user = await requireUser(userId);
      const keys = ID_PROOF_KEYS[fields.doc_type];
      let target: { directorId: number | null; companyId?: number } = { directorId: null };
      if (fields.companyDirectorId !== undefined) {
        const { company, director } = await directorOf(user, fields.companyDirectorId);
        if (!keys.every((key) => (DIRECTOR_KEYS as readonly DocumentKey[]).includes(key))) {
          throw invalid('doc_type', KYC_TEXTS.documentNotForAccount);
        }
        target = { directorId: director.id, companyId: company.id };
      } else {
        await checkOwnDocumentKeys(user, keys);
      }
      requireFileCount(files, keys.length);
      const rows = await storeDocuments(
        userId,
        target,
        keys.map((key, index) => ({ key, file: files[index] as IncomingFile })),
      );
      return rows.map(toDocument);
    },

    /** POST /user/documents/upload: one document by key, the company's or a re-upload of a declined one. */
    async uploadDocument(
      userId: number,
      parameters: DocumentUploadParameters,
      files: readonly IncomingFile[],
    ): Promise<Document> {
      // Someone else's id is nobody the caller may know of.
      if (parameters.user_id !== userId) throw new AppError('NOT_FOUND');
      const user = await requireUser(userId);
      await checkOwnDocumentKeys(user, [parameters.key]);
      requireFileCount(files, 1);
      const [row] = await storeDocuments(userId, { directorId: null }, [
        { key: parameters.key, file: files[0] as IncomingFile },
      ]);
      return toDocument(row as DocumentRow);
    },

    async uploadDirectorDocument(
      userId: number,
      directorId: number,
      type: DirectorDocumentType,
      files: readonly IncomingFile[],
    ): Promise<Director> {
      const user = await requireUser(userId);
      const { company } = await directorOf(user, directorId);
      requireFileCount(files, 1);
      await storeDocuments(userId, { directorId, companyId: company.id }, [
        { key: DIRECTOR_DOCUMENT_KEYS[type], file: files[0] as IncomingFile },
      ]);
      return loadDirector(company, directorId);
    },

    /** One of the customer's own documents (any of theirs, replaced ones included); anyone else's is 404. */
    async getOwnDocumentFile(userId: number, documentId: number): Promise<DocumentFile> {
      const row = await repository.findDocument(String(documentId));
      if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND');
      return readStoredFile(row);
    },

    // ---- for the back office ----

    /** Any customer's document file, for staff (the caller has checked the staff member's role). */
    async readDocumentFile(documentId: number): Promise<DocumentFile> {
      const row = await repository.findDocument(String(documentId));
      if (!row) throw new AppError('NOT_FOUND');
      return readStoredFile(row);
    },

    /** A stored file's bytes by its storage key; a key with no file is a fault. */
    async readStoredBytes(storageKey: string): Promise<Buffer> {
      const bytes = await storage.get(storageKey);
      if (!bytes) throw new Error(`kyc document file ${storageKey} is missing from storage`);
      return bytes;
    },

    /**
     * Every step of the wizard is still submitted: a new address (superseded proof of address) or a
     * company left without directors takes one back after the wizard was finished.
     */
    async hasEveryStepSubmitted(userId: number, executor: Kysely<DB> = db): Promise<boolean> {
      return isEveryStepSubmitted(await getVerificationState(userId, executor));
    },

    /** Every step submitted and every current document (own, company's, directors') approved. */
    async isEverythingApproved(userId: number): Promise<boolean> {
      const state = await getVerificationState(userId);
      if (!isEveryStepSubmitted(state)) return false;
      const documents = [
        ...state.documents,
        ...(state.company?.directors.flatMap((director) => director.documents) ?? []),
      ];
      return documents.length > 0 && documents.every((document) => document.is_admin_approved > 0);
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;
