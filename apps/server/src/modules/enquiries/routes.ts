import type { FastifyInstance } from 'fastify';
import { AppError, ENQUIRY_TEXTS, EnquiryTypeSchema, listEnquiries, sendEnquiry } from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import type { EnquiryService } from './service.js';

/** Support answers the enquiries (a superadmin always may read them). */
const ENQUIRY_READERS = { staff: ['support'] as const };

export function registerEnquiryRoutes(app: FastifyInstance, deps: { enquiries: EnquiryService }): void {
  const { enquiries } = deps;

  registerRoute(app, sendEnquiry, {
    access: 'public',
    handler: async (request) => {
      // An unknown type is an enquiry desk that does not exist: 404, with the ones that do.
      const type = EnquiryTypeSchema.safeParse(request.params.type);
      if (!type.success) throw new AppError('NOT_FOUND', ENQUIRY_TEXTS.unknownType);
      return enquiries.send(type.data, request.body, { ip: request.ip });
    },
  });

  registerRoute(app, listEnquiries, {
    access: ENQUIRY_READERS,
    handler: (request) => enquiries.list(request.query),
  });
}
