import type { FastifyInstance } from 'fastify';
import { CARF_REPORT_ROLES, exportCarfReport } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { CarfService } from './service.js';

/** HMRC's CARF data for a calendar year, as a download for compliance and finance. */
export function registerCarfRoutes(app: FastifyInstance, deps: { carf: CarfService }): void {
  const { carf } = deps;

  registerRoute(app, exportCarfReport, {
    access: { staff: CARF_REPORT_ROLES },
    handler: async (request, reply) => {
      const file = await carf.exportYear(auditActorOf(request), request.query.year);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`);
      return file.csv;
    },
  });
}
