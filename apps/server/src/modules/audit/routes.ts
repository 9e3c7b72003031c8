import type { FastifyInstance } from 'fastify';
import { listAuditLog } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import type { AuditService } from './service.js';

export function registerAuditRoutes(app: FastifyInstance, audit: AuditService): void {
  registerRoute(app, listAuditLog, {
    access: { staff: ['compliance'] },
    handler: async (request) => {
      const { page, target_type, target_id, staff_id } = request.query;
      return audit.list({ targetType: target_type, targetId: target_id, staffId: staff_id }, page);
    },
  });
}
