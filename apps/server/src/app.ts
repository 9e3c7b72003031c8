import type { FastifyInstance } from 'fastify';
import { registerSpa } from './http/spa.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { createHealthService } from './modules/health/service.js';
import { createMetrics, registerMetrics } from './modules/metrics/metrics.js';
import { registerBackOffice } from './app/back-office.js';
import { registerCustomerApi } from './app/customer-api.js';
import type { AppDeps } from './app/deps.js';
import { registerDevelopmentRoutes } from './app/dev-routes.js';
import { registerApiDocs, registerCallerHooks, registerGlobalHooks } from './app/hooks.js';
import { registerLeaderJobs } from './jobs/index.js';
import { registerLivePrices } from './app/live-prices.js';
import { createServer } from './app/server.js';
import { buildServices } from './app/services.js';
import packageJson from '../package.json' with { type: 'json' };

export type { AppDeps } from './app/deps.js';

export const VERSION = packageJson.version;

/** The whole server as one Fastify instance; tests build it with in-memory dependencies and use inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = createServer(config);
  await registerGlobalHooks(app, config);
  await registerApiDocs(app, VERSION);

  // Prometheus scrapes /metrics with METRICS_TOKEN; without one there is no /metrics at all.
  const metrics = config.METRICS_TOKEN ? createMetrics() : null;
  if (metrics && config.METRICS_TOKEN) registerMetrics(app, metrics, config.METRICS_TOKEN);
  registerHealthRoutes(
    app,
    createHealthService({
      db: deps.database.db,
      engine: deps.database.engine,
      version: VERSION,
      domainChecks: deps.domainChecks ?? [],
      initialCheck: deps.initialLedgerCheck,
      sources: {
        ...config.sources,
        mail: deps.mailer.kind,
        stand_ins_allowed: config.allowedStandIns.map((standIn) => standIn.part),
      },
      priceFeeds: () => deps.market?.priceFeeds() ?? [],
    }),
  );

  const services = await buildServices(deps, app.log);
  registerCallerHooks(app, config, services);
  registerCustomerApi(app, deps, services);
  registerBackOffice(app, deps, services);
  if (!config.isProduction) registerDevelopmentRoutes(app, deps, services);
  await registerLivePrices(app, deps, services, metrics);
  // Tests run these jobs by hand; elsewhere the leading instance runs them.
  if (config.NODE_ENV !== 'test') registerLeaderJobs(app, config, services);

  await registerSpa(app, config.WEB_DIST);
  return app;
}
