import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AppError,
  DirectorDocumentFieldsSchema,
  DocumentUploadParametersSchema,
  IdProofFieldsSchema,
  KYC_TEXTS,
  confirmIco,
  createDirector,
  createKyc,
  deleteDirector,
  getDocumentFile,
  saveCompany,
  updateAccountType,
  updateDirector,
  updateKyc,
  updateUserDetails,
  uploadDirectorDocument,
  uploadDocument,
  parseCustomerInput,
  uploadIdProof,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { zodFieldErrors } from '../../http/errors.js';
import { registerRoute, type RouteRateLimit } from '../../http/route.js';
import type { DocumentFile, IncomingFile, KycService } from './service.js';

/** The multipart limits app.ts registers @fastify/multipart with (the file size is MAX_UPLOAD_BYTES). */
export const MULTIPART_LIMITS = { files: 2, fields: 10, parts: 12 } as const;

/**
 * Each upload keeps up to two files of MAX_UPLOAD_BYTES: counted per customer on each upload
 * route, so a loop of uploads cannot fill the disk, and refused before the body is read.
 */
const UPLOAD_LIMIT: RouteRateLimit = {
  max: 20,
  timeWindow: '10 minutes',
  per: 'customer',
  message: KYC_TEXTS.tooManyUploads,
};

/** `file`, `file[]` or `file[0]`: the names the spec's client and plain HTML forms use. */
const FILE_FIELD = /^file(\[\d*\])?$/;

const FIELD_NAME_NOT_ALLOWED = 'The form has a field that is not allowed.';

type MultipartForm = { fields: Record<string, unknown>; files: IncomingFile[] };

/** The form's fields checked by their contract, refused as JSON bodies are: in the customer's words, as a field map. */
function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = parseCustomerInput(schema, value);
  if (!result.success)
    throw new AppError('VALIDATION_FAILED', undefined, zodFieldErrors(result.error.issues, 'body'));
  return result.data;
}

/**
 * Reads a whole multipart form into memory (at most two files of
 * MAX_UPLOAD_BYTES, so bounded), turning the plugin's limit errors into the
 * API's: a file over the size limit is FILE_TOO_LARGE, more files than the
 * form may carry is the spec's text about how many are expected.
 */
async function readMultipart(
  request: FastifyRequest,
  tooManyFilesMessage: (fields: Record<string, unknown>) => string,
): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new AppError('BAD_REQUEST', 'Please send the file as multipart/form-data.');
  }
  // No prototype: a part named "constructor" or "__proto__" is a field like any other.
  const form: MultipartForm = { fields: Object.create(null) as MultipartForm['fields'], files: [] };
  try {
    for await (const part of request.parts() as AsyncIterable<Multipart>) {
      if (part.type === 'file') {
        if (!FILE_FIELD.test(part.fieldname)) {
          await part.toBuffer();
          throw new AppError('VALIDATION_FAILED', undefined, {
            [part.fieldname]: ['This field is not allowed.'],
          });
        }
        form.files.push({ filename: part.filename, bytes: await part.toBuffer() });
      } else if (Object.hasOwn(form.fields, part.fieldname)) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          [part.fieldname]: ['This field is sent more than once.'],
        });
      } else {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    switch ((error as { code?: string }).code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw new AppError('FILE_TOO_LARGE');
      case 'FST_FILES_LIMIT': {
        const message = tooManyFilesMessage(form.fields);
        throw new AppError('VALIDATION_FAILED', message, { file: [message] });
      }
      case 'FST_PROTO_VIOLATION':
        // The plugin refuses a part named after a built-in key (toString, __proto__) without naming it.
        throw new AppError('VALIDATION_FAILED', FIELD_NAME_NOT_ALLOWED, { body: [FIELD_NAME_NOT_ALLOWED] });
      case 'FST_FIELDS_LIMIT':
      case 'FST_PARTS_LIMIT':
        throw new AppError('PAYLOAD_TOO_LARGE');
      default:
        // A broken or cut-off form: nothing of it is used.
        throw new AppError('BAD_REQUEST', 'The upload could not be read. Please try again.');
    }
  }
  return form;
}

/** `parameters` arrives as JSON text (or already parsed, when the part was sent as application/json). */
const DocumentUploadFormSchema = z.strictObject({
  parameters: z.union([z.string(), z.record(z.string(), z.unknown())], {
    error: 'The parameters field is required.',
  }),
  /** The spec's client sends it with a licence side; the key alone decides. */
  doc_type: IdProofFieldsSchema.shape.doc_type.optional(),
});

function parseParameters(value: string | Record<string, unknown>) {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new AppError('VALIDATION_FAILED', undefined, {
        parameters: ['The parameters field must be JSON.'],
      });
    }
  }
  return parseFields(DocumentUploadParametersSchema, parsed);
}

/** `filename` for the header: printable ASCII without quotes, plus the exact name RFC 5987-encoded. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Hands out a stored document so that no browser ever runs it: always a
 * download, the type it was stored as, never sniffed, sandboxed should it
 * be opened anyway, and not kept in any cache. The back office sends its
 * files through here too.
 */
export function sendDocumentFile(reply: FastifyReply, file: DocumentFile): Buffer {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.filename))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; frame-ancestors 'none'");
  return file.bytes;
}

const ok = (message: string) => ({ message });

export function registerKycRoutes(app: FastifyInstance, deps: { kyc: KycService }): void {
  const { kyc } = deps;
  const userIdOf = (request: FastifyRequest) => requireCustomer(request).userId;

  registerRoute(app, updateUserDetails, {
    access: 'customer',
    handler: async (request) => {
      await kyc.saveDetails(userIdOf(request), request.body);
      return ok('Your details have been saved.');
    },
  });

  registerRoute(app, updateAccountType, {
    access: 'customer',
    handler: async (request) => {
      await kyc.setAccountType(userIdOf(request), request.body);
      return ok('Your account type has been saved.');
    },
  });

  registerRoute(app, confirmIco, {
    access: 'customer',
    handler: async (request) => {
      await kyc.confirmIco(userIdOf(request), request.body.ico_confirmed);
      return ok('Saved.');
    },
  });

  registerRoute(app, createKyc, {
    access: 'customer',
    handler: async (request) => {
      await kyc.createAnswers(userIdOf(request), request.body);
      return ok('Your answers have been saved.');
    },
  });

  registerRoute(app, updateKyc, {
    access: 'customer',
    handler: async (request) => {
      await kyc.updateAnswers(userIdOf(request), request.body);
      return ok('Your answers have been saved.');
    },
  });

  registerRoute(app, saveCompany, {
    access: 'customer',
    handler: async (request) => ({ data: await kyc.saveCompany(userIdOf(request), request.body) }),
  });

  registerRoute(app, createDirector, {
    access: 'customer',
    handler: async (request, reply) => {
      const director = await kyc.createDirector(userIdOf(request), request.body);
      reply.status(201);
      return { data: director };
    },
  });

  registerRoute(app, updateDirector, {
    access: 'customer',
    handler: async (request) => ({
      data: await kyc.updateDirector(userIdOf(request), request.params.id, request.body),
    }),
  });

  registerRoute(app, deleteDirector, {
    access: 'customer',
    handler: async (request) => {
      await kyc.deleteDirector(userIdOf(request), request.params.id);
      return { success: true as const };
    },
  });

  registerRoute(app, uploadIdProof, {
    access: 'customer',
    rateLimit: UPLOAD_LIMIT,
    handler: async (request) => {
      const userId = userIdOf(request);
      const form = await readMultipart(request, (fields) =>
        fields.doc_type === 'driver_license' || fields.doc_type === undefined
          ? KYC_TEXTS.twoImages
          : KYC_TEXTS.oneFile,
      );
      const fields = parseFields(IdProofFieldsSchema, form.fields);
      const documents = await kyc.uploadIdProof(userId, fields, form.files);
      return { data: { done: 1 as const, documents } };
    },
  });

  registerRoute(app, uploadDocument, {
    access: 'customer',
    rateLimit: UPLOAD_LIMIT,
    handler: async (request) => {
      const userId = userIdOf(request);
      const form = await readMultipart(request, () => KYC_TEXTS.oneFile);
      const fields = parseFields(DocumentUploadFormSchema, form.fields);
      return { data: await kyc.uploadDocument(userId, parseParameters(fields.parameters), form.files) };
    },
  });

  registerRoute(app, uploadDirectorDocument, {
    access: 'customer',
    rateLimit: UPLOAD_LIMIT,
    handler: async (request) => {
      const userId = userIdOf(request);
      const form = await readMultipart(request, () => KYC_TEXTS.oneFile);
      const fields = parseFields(DirectorDocumentFieldsSchema, form.fields);
      const director = await kyc.uploadDirectorDocument(userId, request.params.id, fields.type, form.files);
      return { data: { done: 1 as const, director } };
    },
  });

  registerRoute(app, getDocumentFile, {
    access: 'customer',
    handler: async (request, reply) =>
      sendDocumentFile(reply, await kyc.getOwnDocumentFile(userIdOf(request), request.params.id)),
  });
}
