import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '@florin/contracts';
import { endOfJpeg, endOfPng } from './image-structure.js';
import { isSafePdf } from './pdf-inspection.js';

/**
 * The one gate every uploaded document passes before it is stored (spec 000
 * §5/§9, issue 4). It accepts JPEG, PNG and PDF only when the name AND the
 * content agree, refuses anything that could run in a browser or a PDF reader
 * (markup, polyglots, scripts, embedded files) and re-encodes images so no
 * metadata (EXIF, GPS, text chunks) or smuggled bytes survive.
 */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export type UploadKind = 'jpeg' | 'png' | 'pdf';

export type CheckedUpload = {
  kind: UploadKind;
  contentType: 'image/jpeg' | 'image/png' | 'application/pdf';
  bytes: Buffer;
};

/** Longest side of a stored image: a document stays readable, a huge scan does not bloat storage. */
export const MAX_IMAGE_SIDE = 6000;

/**
 * Decoding refuses images above this many pixels before allocating them (a
 * 10 MB PNG can declare billions). 100 MP still takes a full-resolution
 * photo from a 108 MP phone camera.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

const KIND_BY_EXTENSION = new Map<string, UploadKind>([
  ['jpeg', 'jpeg'],
  ['jpg', 'jpeg'],
  ['png', 'png'],
  ['pdf', 'pdf'],
]);

const CONTENT_TYPE_BY_KIND = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
} as const satisfies Record<UploadKind, CheckedUpload['contentType']>;

/** Markers of HTML, SVG or script: a browser that sniffs the bytes could run them. */
const MARKUP_MARKERS = ['<script', '<html', '<svg', '<!doctype', '<iframe', '<body', 'javascript:'];

function unsupported(): AppError {
  return new AppError('UNSUPPORTED_FILE');
}

/** Throws AppError('UNSUPPORTED_FILE') or AppError('FILE_TOO_LARGE'); returns the bytes to store. */
export async function checkUpload(file: { filename: string; bytes: Buffer }): Promise<CheckedUpload> {
  if (file.bytes.length > MAX_UPLOAD_BYTES) throw new AppError('FILE_TOO_LARGE');
  if (file.bytes.length === 0) throw unsupported();

  const kind = kindFromFilename(file.filename);
  if (!kind) throw unsupported();
  const detected = await fileTypeFromBuffer(file.bytes);
  if (detected?.mime !== CONTENT_TYPE_BY_KIND[kind]) throw unsupported();

  const latin1 = file.bytes.toString('latin1');
  if (containsMarkup(latin1)) throw unsupported();

  const contentType = CONTENT_TYPE_BY_KIND[kind];
  if (kind === 'pdf') {
    if (!(await isSafePdf(file.bytes))) throw unsupported();
    return { kind, contentType, bytes: file.bytes };
  }
  if (!endsWhereItsStructureEnds(kind, file.bytes)) throw unsupported();
  return { kind, contentType, bytes: await reencodeImage(kind, file.bytes) };
}

function kindFromFilename(filename: string): UploadKind | undefined {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return undefined;
  return KIND_BY_EXTENSION.get(filename.slice(dot + 1).toLowerCase());
}

function containsMarkup(latin1: string): boolean {
  const lower = latin1.toLowerCase();
  return MARKUP_MARKERS.some((marker) => lower.includes(marker));
}

// ---------------------------------------------------------------------------
// Images

/**
 * Nothing may follow the image (a PNG or JPEG with HTML after it is a
 * polyglot), except, for JPEG, further complete JPEG streams: phones append
 * a second image after the first one's EOI (MPF depth maps, Ultra HDR gain
 * maps). Those parse as JPEG, are markup-free (checked before) and the
 * re-encoding drops them.
 */
function endsWhereItsStructureEnds(kind: 'jpeg' | 'png', bytes: Buffer): boolean {
  if (kind === 'png') return endOfPng(bytes) === bytes.length;
  let offset: number | undefined = 0;
  while (offset !== undefined && offset < bytes.length) offset = endOfJpeg(bytes, offset);
  return offset === bytes.length;
}

// Uploads are all different, so libvips' operation cache would only hold memory.
sharp.cache(false);

/**
 * Decodes and encodes again in the same format: auto-oriented (the EXIF
 * orientation is about to be stripped), at most MAX_IMAGE_SIDE a side, sRGB,
 * without any metadata. An image that does not decode cleanly is refused.
 */
async function reencodeImage(kind: 'jpeg' | 'png', bytes: Buffer): Promise<Buffer> {
  try {
    const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .autoOrient()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
    return await (kind === 'jpeg' ? pipeline.jpeg({ quality: 90 }) : pipeline.png()).toBuffer();
  } catch {
    throw unsupported();
  }
}
