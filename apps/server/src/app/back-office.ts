import type { FastifyInstance } from 'fastify';
import { createAdminAuthService } from '../modules/admin/auth-service.js';
import { createStaffMailer } from '../modules/admin/mail.js';
import { createAdminRepository } from '../modules/admin/repository.js';
import { registerAdminRoutes } from '../modules/admin/routes.js';
import { createStaffService } from '../modules/admin/staff-service.js';
import { registerAuditRoutes } from '../modules/audit/routes.js';
import { createAuditService } from '../modules/audit/service.js';
import { registerComplianceRoutes } from '../modules/compliance/routes.js';
import { createMailAdmin } from '../modules/notifications/mail-admin.js';
import { registerMailRoutes } from '../modules/notifications/routes.js';
import { registerSanctionsRoutes } from '../modules/sanctions/routes.js';
import { createTradingAdminRepository, createTradingAdminService } from '../modules/trading/admin.js';
import { registerTradingAdminRoutes } from '../modules/trading/admin-routes.js';
import type { AppDeps } from './deps.js';
import type { AppServices } from './services.js';

/** The staff's own modules: sign-in and staff accounts, the audit log, failed mail, compliance, sanctions, trading settings. */
export function registerBackOffice(app: FastifyInstance, deps: AppDeps, services: AppServices): void {
  const { config } = deps;
  const { db, clock, staffSessions } = services;
  const adminRepository = createAdminRepository(db, clock);
  registerAdminRoutes(app, {
    auth: createAdminAuthService({
      db,
      repository: adminRepository,
      sessions: staffSessions,
      limits: services.limits,
      secretBox: deps.secretBox,
      clock,
    }),
    staff: createStaffService({
      db,
      repository: adminRepository,
      sessions: staffSessions,
      mail: createStaffMailer({ notifier: services.notifier, publicUrl: config.publicUrl }),
    }),
    cookies: services.cookies,
    simulatedChain: !config.isProduction,
  });
  registerAuditRoutes(app, createAuditService(db));
  registerMailRoutes(app, { mail: createMailAdmin({ db, clock }) });
  registerComplianceRoutes(app, { compliance: services.compliance, customers: services.customers });
  registerSanctionsRoutes(app, { sanctions: services.sanctions });
  registerTradingAdminRoutes(app, {
    admin: createTradingAdminService({
      db,
      repository: createTradingAdminRepository(db),
      ledger: deps.ledger,
      market: services.market,
      feeSchedule: services.feeSchedule,
    }),
  });
}
