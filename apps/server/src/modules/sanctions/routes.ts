import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AppError,
  confirmSanctionsHit,
  getSanctionsList,
  importSanctionsList,
  listCustomerScreenings,
  listSanctionsHits,
  markSanctionsHitFalsePositive,
  recordSanctionsHitDelisted,
  SANCTIONS_FILE_MAX_BYTES,
  SANCTIONS_ROLES,
  SANCTIONS_TEXTS,
} from '@florin/contracts';
import { registerRoute } from '../../http/route.js';
import { auditActorOf } from '../audit/service.js';
import type { SanctionsService, UploadedList } from './service.js';

const compliance = { staff: SANCTIONS_ROLES };

/** The list is bigger than a KYC document: its own size limit, one file and nothing else. */
const LIST_UPLOAD_LIMITS = { fileSize: SANCTIONS_FILE_MAX_BYTES, files: 1, fields: 0, parts: 1 };

/** The one `file` part of the form, read into memory (bounded by LIST_UPLOAD_LIMITS). */
async function readListFile(request: FastifyRequest): Promise<UploadedList> {
  if (!request.isMultipart()) {
    throw new AppError('BAD_REQUEST', 'Please send the file as multipart/form-data.');
  }
  let file: UploadedList | undefined;
  try {
    for await (const part of request.parts({ limits: LIST_UPLOAD_LIMITS }) as AsyncIterable<Multipart>) {
      if (part.type === 'file' && part.fieldname === 'file') {
        file = { filename: part.filename, bytes: await part.toBuffer() };
      } else if (part.type === 'file') {
        await part.toBuffer();
      }
    }
  } catch (error) {
    switch ((error as { code?: string }).code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw new AppError('FILE_TOO_LARGE', SANCTIONS_TEXTS.fileTooLarge, {
          file: [SANCTIONS_TEXTS.fileTooLarge],
        });
      case 'FST_FILES_LIMIT':
      case 'FST_FIELDS_LIMIT':
      case 'FST_PARTS_LIMIT':
        throw new AppError('VALIDATION_FAILED', SANCTIONS_TEXTS.fileRequired, {
          file: [SANCTIONS_TEXTS.fileRequired],
        });
      default:
        // A broken or cut-off form: nothing of it is used.
        throw new AppError('BAD_REQUEST', 'The upload could not be read. Please try again.');
    }
  }
  if (!file || file.bytes.length === 0) {
    throw new AppError('VALIDATION_FAILED', SANCTIONS_TEXTS.fileRequired, {
      file: [SANCTIONS_TEXTS.fileRequired],
    });
  }
  return file;
}

export function registerSanctionsRoutes(app: FastifyInstance, deps: { sanctions: SanctionsService }): void {
  const { sanctions } = deps;

  registerRoute(app, getSanctionsList, {
    access: compliance,
    handler: async () => ({ data: await sanctions.getActiveList() }),
  });

  registerRoute(app, importSanctionsList, {
    access: compliance,
    handler: async (request) => sanctions.importList(auditActorOf(request), await readListFile(request)),
  });

  registerRoute(app, listSanctionsHits, {
    access: compliance,
    handler: (request) => sanctions.listHits(request.query),
  });

  registerRoute(app, markSanctionsHitFalsePositive, {
    access: compliance,
    handler: (request) =>
      sanctions.markFalsePositive(auditActorOf(request), request.params.id, request.body.note),
  });

  registerRoute(app, confirmSanctionsHit, {
    access: compliance,
    handler: (request) => sanctions.confirmMatch(auditActorOf(request), request.params.id, request.body.note),
  });

  registerRoute(app, recordSanctionsHitDelisted, {
    access: compliance,
    handler: (request) =>
      sanctions.recordDelisted(auditActorOf(request), request.params.id, request.body.note),
  });

  registerRoute(app, listCustomerScreenings, {
    access: compliance,
    handler: async (request) => ({ data: await sanctions.listScreenings(request.params.userId) }),
  });
}
