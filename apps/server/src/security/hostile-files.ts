import zlib from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { AppError } from '@florin/contracts';
import { checkUpload } from './uploads.js';

/**
 * Test support for the upload gate (uploads.test.ts, upload-corpus.test.ts):
 * builders of images and PDFs from real bytes, so each case shows exactly
 * what it carries and nothing is downloaded, and the assertions of its two
 * refusals.
 */

export async function png(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2b6cb0' } })
    .png()
    .toBuffer();
}

export async function jpeg(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c05621' } })
    .jpeg()
    .toBuffer();
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A PNG built chunk by chunk: signature, IHDR, the given chunks, IEND. */
export function handmadePng(width: number, height: number, chunks: Buffer[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    ...chunks,
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Compressed zeros, streamed so the test never holds the inflated size. */
export async function deflateZeros(length: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < length; written += block.length)
    deflate.write(block.subarray(0, Math.min(block.length, length - written)));
  deflate.end();
  await ended;
  return Buffer.concat(chunks);
}

/** Inserts a chunk right after IHDR (8 bytes of signature + 25 of IHDR). */
export function withPngChunk(image: Buffer, chunk: Buffer): Buffer {
  return Buffer.concat([image.subarray(0, 33), chunk, image.subarray(33)]);
}

export function pdfStream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** A well-formed PDF whose objects are numbered from 1 in the order given, with a cross-reference table. */
export function pdf(objects: Array<string | Buffer>, trailerEntries = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof object === 'string' ? Buffer.from(object, 'latin1') : object,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(length);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R ${trailerEntries}>>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref, 'latin1')]);
}

const pageContent = pdfStream(
  '/Filter /FlateDecode',
  zlib.deflateSync('BT /F1 12 Tf 72 712 Td (Hello) Tj ET'),
);

/** A one-page document; `catalogEntries` and `extraObjects` (numbered from 5) add to it. */
export function onePagePdf(
  catalogEntries = '',
  extraObjects: Array<string | Buffer> = [],
  trailerEntries = '',
): Buffer {
  return pdf(
    [
      `<< /Type /Catalog /Pages 2 0 R ${catalogEntries}>>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      pageContent,
      ...extraObjects,
    ],
    trailerEntries,
  );
}

/** An object stream holding the given objects, as PDF 1.5 writers compress objects. */
export function objectStream(
  objects: Array<[number, string]>,
  encode: (data: Buffer) => Buffer = (data) => zlib.deflateSync(data),
): { first: number; data: Buffer } {
  let body = '';
  const header: string[] = [];
  for (const [number, object] of objects) {
    header.push(`${number} ${body.length}`);
    body += `${object}\n`;
  }
  const first = `${header.join(' ')}\n`;
  return { first: first.length, data: encode(Buffer.from(first + body, 'latin1')) };
}

/** ASCII85 as PDF writers produce it (without the `~>` terminator). */
export function encodeAscii85(data: Buffer): string {
  let out = '';
  for (let offset = 0; offset < data.length; offset += 4) {
    const chunk = data.subarray(offset, offset + 4);
    const padded = Buffer.concat([chunk, Buffer.alloc(4 - chunk.length)]);
    let value = padded.readUInt32BE(0);
    if (value === 0 && chunk.length === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      digits.unshift(String.fromCharCode((value % 85) + 33));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, chunk.length + 1).join('');
  }
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** The gate's answer to a file it will not take, whatever the reason: 422 with the spec's text. */
export async function expectUnsupported(file: { filename: string; bytes: Buffer }): Promise<void> {
  const error = await refusal(checkUpload(file));
  expect(error.toBody()).toEqual({
    code: 'UNSUPPORTED_FILE',
    message: 'File format not supported. Accepts only JPEG, JPG, PNG and PDF.',
  });
  expect(error.status).toBe(422);
}

/** The gate's answer to a file over MAX_UPLOAD_BYTES, before it looks at the content: 413. */
export async function expectTooLarge(file: { filename: string; bytes: Buffer }): Promise<void> {
  const error = await refusal(checkUpload(file));
  expect(error.status).toBe(413);
  expect(error.toBody()).toEqual({
    code: 'FILE_TOO_LARGE',
    message: 'The file is larger than 10 MB. Please upload a smaller file.',
  });
}
