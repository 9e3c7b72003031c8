import type { FastifyBaseLogger } from 'fastify';
import { createAuthRepository } from '../modules/auth/repository.js';
import { createAuthService, type AuthServiceDeps } from '../modules/auth/service.js';
import { createCustomerAdminService } from '../modules/compliance/customer-service.js';
import { createComplianceRepository } from '../modules/compliance/repository.js';
import { createComplianceService } from '../modules/compliance/service.js';
import { createKycRepository } from '../modules/kyc/repository.js';
import { createKycService } from '../modules/kyc/service.js';
import { createVerificationGate } from '../modules/kyc/verification.js';
import { createSanctionsRepository } from '../modules/sanctions/repository.js';
import { createSanctionsService, type SanctionsService } from '../modules/sanctions/service.js';
import { createSecondFactor } from '../security/second-factor.js';
import type { BaseServices } from './base-services.js';
import type { AppDeps } from './deps.js';
import { lateBound } from './late-bound.js';

/** What the account services ask of modules built after them; called only once the app is built. */
export type AccountServicesLater = {
  /** The whitelists module's check on a sign-in's address. */
  isSignInIpAllowed: AuthServiceDeps['isSignInIpAllowed'];
};

/** Sign-in, KYC, compliance and sanctions, and the second factor every money movement asks. */
export function buildAccountServices(
  deps: AppDeps,
  base: BaseServices,
  later: AccountServicesLater,
  log: FastifyBaseLogger,
) {
  const { config } = deps;
  const { db, clock, notifier, limits, emailedCodes } = base;
  // Sanctions holds accounts through compliance, which (like KYC) screens through sanctions.
  const sanctionsLater = lateBound<SanctionsService>('the sanctions service');
  const kycRepository = createKycRepository(db);
  const kyc = createKycService({
    db,
    repository: kycRepository,
    storage: base.storage,
    complianceEmail: config.COMPLIANCE_EMAIL,
    upgrades: base.upgrades,
    tradingVolumes: base.tradingVolumes,
    sanctions: {
      screenCustomer: (userId, trigger) => sanctionsLater.get().screenCustomer(userId, trigger),
    },
  });
  const auth = createAuthService({
    repository: createAuthRepository(db, clock),
    sessions: base.sessions,
    notifier,
    captcha: base.captcha,
    limits,
    secretBox: deps.secretBox,
    publicUrl: config.publicUrl,
    loadVerificationState: (userId) => kyc.getVerificationState(userId),
    isSignInIpAllowed: later.isSignInIpAllowed,
    emailedCodes: {
      issue: (userId, purpose) => emailedCodes.issue(db, userId, purpose),
      check: (userId, purpose, code) => emailedCodes.check(userId, purpose, code),
    },
    clock,
  });
  const complianceRepository = createComplianceRepository(db);
  const sanctionsRepository = createSanctionsRepository(db);
  const compliance = createComplianceService({
    db,
    repository: complianceRepository,
    notifier,
    kyc,
    sanctions: {
      findHoldingHit: (userId, executor) => sanctionsRepository.findHoldingHit(userId, executor),
      screenIfMissedSince: (userId, completedAt) =>
        sanctionsLater.get().screenIfMissedSince(userId, completedAt),
    },
    tradingVolumes: base.tradingVolumes,
    publicUrl: config.publicUrl,
  });
  const sanctions = createSanctionsService({ db, repository: sanctionsRepository, compliance, log });
  sanctionsLater.set(sanctions);
  const customers = createCustomerAdminService({
    db,
    repository: complianceRepository,
    ledger: deps.ledger,
    notifier,
    kyc,
    sanctions: {
      screenCustomer: (userId, trigger) => sanctions.screenCustomer(userId, trigger),
      findHoldingHit: (userId) => sanctionsRepository.findHoldingHit(userId),
    },
    clock,
  });
  const secondFactor = createSecondFactor({
    emailedCodes,
    limits,
    verifyAuthenticatorCode: (userId, passcode) => auth.verifyAuthenticatorCode(userId, passcode),
  });
  return {
    kyc,
    auth,
    verification: createVerificationGate({ db, repository: kycRepository }),
    compliance,
    sanctions,
    customers,
    secondFactor,
  };
}

export type AccountServices = ReturnType<typeof buildAccountServices>;
