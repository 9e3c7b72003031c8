import type { FastifyInstance } from 'fastify';
import {
  AppError,
  CapitalGainsQuerySchema,
  capitalGainsCsvFilename,
  exportCapitalGainsPath,
  getCapitalGains,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { TaxService } from './service.js';

/** The signed-in customer's own capital gains report; a company's account has none (404). */
export function registerTaxRoutes(app: FastifyInstance, deps: { tax: TaxService }): void {
  const { tax } = deps;

  registerRoute(app, getCapitalGains, {
    access: 'customer',
    handler: async (request) => tax.report(requireCustomer(request).userId, request.query.year),
  });

  app.get(exportCapitalGainsPath, { config: { access: 'customer' } }, async (request, reply) => {
    const query = CapitalGainsQuerySchema.safeParse(request.query);
    if (!query.success) throw new AppError('VALIDATION_FAILED', undefined, { year: ['Choose a tax year.'] });
    const { label, csv } = await tax.exportCsv(requireCustomer(request).userId, query.data.year);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${capitalGainsCsvFilename(label)}"`)
      .send(csv);
  });
}
