import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { sanitiseFileName } from '../modules/kyc/service.js';
import {
  deflateZeros,
  handmadePng,
  jpeg,
  objectStream,
  onePagePdf,
  pdfStream,
  png,
  pngChunk,
} from './hostile-files.js';
import { endOfJpeg, endOfPng } from './image-structure.js';
import { PDF_INSPECTION_LIMITS } from './pdf-inspection.js';
import { type CheckedUpload } from './uploads.js';

/**
 * The building blocks of the hostile upload corpus (upload-corpus.test.ts): the families, the outcomes
 * a file may have, and the builders of hostile bytes the cases share.
 */

export const FAMILIES = [
  'polyglot',
  'markup renamed',
  'bomb',
  'pixel flood',
  'PDF active content',
  'hostile name',
  'double extension',
  'corrupt',
  'oversize',
  'executable',
  'unsupported image',
] as const;

export type Family = (typeof FAMILIES)[number];

type Outcome =
  | { is: 'refused' }
  | { is: 'refused as too large' }
  | { is: 'neutralised'; check: (checked: CheckedUpload, filename: string) => Promise<void> };

export type HostileFile = {
  name: string;
  filename: string;
  build: () => Buffer | Promise<Buffer>;
  outcome: Outcome;
  /** Inflated bytes the PDF inspection may spend on this file, when not the real budget. */
  pdfDecodingBudget?: number;
};

export type Case = HostileFile & { family: Family };

// ---------------------------------------------------------------------------
// Outcomes

/** What no stored image may contain, whatever the file smuggled. */
const NEVER_STORED = [
  '<script',
  '<html',
  '<svg',
  '<?php',
  'PK\x03\x04',
  '%PDF',
  'JavaScript',
  'cannot be run',
];

/** PNG chunks that carry pixels or say how to show them; text, profiles and private chunks are not among them. */
const PIXEL_CHUNKS = new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND', 'pHYs', 'gAMA', 'cHRM', 'sRGB']);

/** JPEG segments before the scan that carry pixels: JFIF, quantisation and Huffman tables, frame, restart interval. */
const PIXEL_SEGMENTS = new Set([0xe0, 0xdb, 0xc4, 0xc0, 0xc1, 0xc2, 0xdd, 0xda]);

/** Accepted only as one freshly encoded image of this size: no metadata, nothing after it, none of `smuggled`. */
export function reencoded(
  kind: 'png' | 'jpeg',
  width: number,
  height: number,
  smuggled: string[] = [],
): Outcome {
  return {
    is: 'neutralised',
    check: (checked) => expectCleanImage(checked, { kind, width, height, smuggled }),
  };
}

async function expectCleanImage(
  checked: CheckedUpload,
  image: { kind: 'png' | 'jpeg'; width: number; height: number; smuggled: string[] },
): Promise<void> {
  const { kind, width, height, smuggled } = image;
  expect(checked).toMatchObject({ kind, contentType: `image/${kind}` });
  expect(await sharp(checked.bytes).metadata()).toMatchObject({ format: kind, width, height });
  if (kind === 'png') {
    expect(endOfPng(checked.bytes)).toBe(checked.bytes.length);
    const chunks = pngChunks(checked.bytes);
    expect(chunks.map(({ type }) => type).filter((type) => !PIXEL_CHUNKS.has(type))).toEqual([]);
    // No more pixel data than the header asks for: a viewer of the stored file inflates no bomb.
    const idat = Buffer.concat(chunks.filter(({ type }) => type === 'IDAT').map(({ data }) => data));
    const rawSize = pngRawSize(chunks[0]?.data ?? Buffer.alloc(13));
    expect(zlib.inflateSync(idat, { maxOutputLength: rawSize }).length).toBe(rawSize);
  } else {
    expect(endOfJpeg(checked.bytes)).toBe(checked.bytes.length);
    expect(jpegSegmentsBeforeScan(checked.bytes).filter((marker) => !PIXEL_SEGMENTS.has(marker))).toEqual([]);
  }
  for (const text of [...NEVER_STORED, ...smuggled]) expect(checked.bytes.includes(text), text).toBe(false);
}

/**
 * Accepted as a clean image, and the name the KYC service keeps for it
 * (sanitiseFileName) is `stored`: one plain file name, with no folder and no
 * control, bidirectional or markup character. The file itself is stored
 * under a random key, so the name never becomes a path.
 */
export function storedAs(stored: string, smuggled: string[] = []): Outcome {
  return {
    is: 'neutralised',
    check: async (checked, filename) => {
      await expectCleanImage(checked, { kind: 'png', width: 8, height: 8, smuggled });
      const name = sanitiseFileName(filename);
      expect(name).toBe(stored);
      expect(name).not.toMatch(/[/\\<>:"|?*]|\p{Cc}|\p{Cf}/u);
      expect(path.posix.basename(name)).toBe(name);
      expect(path.win32.basename(name)).toBe(name);
      expect(name.startsWith('.')).toBe(false);
      expect(name.length).toBeLessThanOrEqual(100);
    },
  };
}

// ---------------------------------------------------------------------------
// Building blocks

export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export const basePng = once(() => png(8, 8));
export const baseJpeg = once(() => jpeg(16, 16));

export const HTML =
  '<!DOCTYPE html><html><body><script>fetch("/api/v1/user").then(r=>r.text()).then(alert)</script>';
export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><rect/></svg>';
export const PHP = '<?php system($_GET["cmd"]); ?>';
export const SCRIPT_ACTION = '<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>';

/** Inflated size of every bomb here: 128 MiB of zeros, about 130 KB compressed. */
const BOMB_BYTES = 128 * 1024 * 1024;

/** The zeros compressed once (zlib, streamed) with their CRC-32, for the ZIP and gzip bombs. */
export const zeros = once(async () => {
  const compressed = await deflateZeros(BOMB_BYTES);
  const block = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let done = 0; done < BOMB_BYTES; done += block.length) crc = zlib.crc32(block, crc);
  // A zlib stream is a two-byte header, the raw deflate data and a four-byte checksum.
  return { zlib: compressed, deflate: compressed.subarray(2, compressed.length - 4), crc };
});

type ZipEntry = { name: string; method: 0 | 8; payload: Buffer; size: number; crc: number };

function storedEntry(name: string, data: Buffer): ZipEntry {
  return { name, method: 0, payload: data, size: data.length, crc: zlib.crc32(data) };
}

export function deflatedEntry(name: string, data: Buffer): ZipEntry {
  return { name, method: 8, payload: zlib.deflateRawSync(data), size: data.length, crc: zlib.crc32(data) };
}

export async function bombEntry(name: string): Promise<ZipEntry> {
  const { deflate, crc } = await zeros();
  return { name, method: 8, payload: deflate, size: BOMB_BYTES, crc };
}

/**
 * A ZIP archive (local headers, central directory, end record). With
 * `listings` above 1 the directory lists every entry that many times over
 * the same data, as overlapping zip bombs do.
 */
export function zipArchive(entries: ZipEntry[], listings = 1): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0x21, 12); // 1 January 1980
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.payload.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    for (let listing = 0; listing < listings; listing += 1) {
      const listedName = listing === 0 ? name : Buffer.from(`${listing}-${entry.name}`);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4); // made by
      record.writeUInt16LE(20, 6); // needed
      record.writeUInt16LE(entry.method, 10);
      record.writeUInt16LE(0x21, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.payload.length, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(listedName.length, 28);
      record.writeUInt32LE(offset, 42);
      directory.push(record, listedName);
    }
    locals.push(local, name, entry.payload);
    offset += local.length + name.length + entry.payload.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length * listings, 8);
  end.writeUInt16LE(entries.length * listings, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

/** A ZIP holding an HTML page, compressed so no markup shows in its bytes. */
export const htmlZip = () => zipArchive([deflatedEntry('index.html', Buffer.from(HTML))]);

/** A Java archive: a manifest naming the class to run, and the class. */
export const jar = () =>
  zipArchive([
    deflatedEntry('META-INF/MANIFEST.MF', Buffer.from('Manifest-Version: 1.0\r\nMain-Class: Evil\r\n\r\n')),
    storedEntry('Evil.class', Buffer.from('cafebabe00000034000a', 'hex')),
  ]);

export const bombZip = once(async () => zipArchive([await bombEntry('zeros.bin')]));

export async function gzipBomb(): Promise<Buffer> {
  const { deflate, crc } = await zeros();
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(BOMB_BYTES % 2 ** 32, 4);
  return Buffer.concat([Buffer.from('1f8b0800000000000003', 'hex'), deflate, trailer]);
}

/** Inserts a segment right after the JPEG's SOI marker. */
export function withJpegSegment(image: Buffer, marker: number, data: Buffer | string): Buffer {
  const payload = Buffer.from(data);
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([image.subarray(0, 2), header, payload, image.subarray(2)]);
}

/** The JPEG with its frame header (SOFn) declaring another size. */
export function withJpegSize(image: Buffer, width: number, height: number): Buffer {
  const resized = Buffer.from(image);
  for (let offset = 2; offset + 9 <= resized.length; offset += 2 + resized.readUInt16BE(offset + 2)) {
    const marker = resized[offset + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      resized.writeUInt16BE(height, offset + 5);
      resized.writeUInt16BE(width, offset + 7);
      return resized;
    }
  }
  throw new Error('The JPEG has no frame header');
}

/** A PNG declaring this size, with a few bytes of compressed pixel data: decoding must not even start. */
export function floodPng(width: number, height: number): Buffer {
  return handmadePng(width, height, [pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(64)))]);
}

function pngChunks(bytes: Buffer): Array<{ type: string; data: Buffer }> {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let offset = 8; offset + 8 <= bytes.length; offset += 12 + bytes.readUInt32BE(offset)) {
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    chunks.push({ type, data: bytes.subarray(offset + 8, offset + 8 + bytes.readUInt32BE(offset)) });
  }
  return chunks;
}

const CHANNELS_BY_COLOUR_TYPE = new Map([
  [0, 1],
  [2, 3],
  [3, 1],
  [4, 2],
  [6, 4],
]);

/** Bytes of filtered pixel data a non-interlaced PNG with this IHDR holds: a filter byte and the pixels, a row. */
function pngRawSize(header: Buffer): number {
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  const bitsPerPixel = (header[8] ?? 8) * (CHANNELS_BY_COLOUR_TYPE.get(header[9] ?? 0) ?? 1);
  expect(header[12], 'interlace method').toBe(0);
  return height * (1 + Math.ceil((width * bitsPerPixel) / 8));
}

function jpegSegmentsBeforeScan(bytes: Buffer): number[] {
  const markers: number[] = [];
  for (let offset = 2; offset + 4 <= bytes.length; offset += 2 + bytes.readUInt16BE(offset + 2)) {
    const marker = bytes[offset + 1] ?? 0;
    markers.push(marker);
    if (marker === 0xda) break;
  }
  return markers;
}

/** A 2×2 24-bit Windows bitmap. */
export function bmp(): Buffer {
  const pixels = Buffer.alloc(16, 0x80); // two rows of 6 bytes, each padded to 8
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(header.length + pixels.length, 2);
  header.writeUInt32LE(header.length, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

/** A Windows icon whose one image is a PNG. */
export async function ico(): Promise<Buffer> {
  const image = await basePng();
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(8, 6);
  header.writeUInt8(8, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

export function sharpImage(format: 'gif' | 'tiff' | 'webp' | 'avif'): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#38a169' } })
    .toFormat(format)
    .toBuffer();
}

/** A 64-bit x86 Linux executable header followed by `exit(0)`. */
export function elf(): Buffer {
  const header = Buffer.alloc(64);
  Buffer.from('7f454c46020101', 'hex').copy(header);
  header.writeUInt16LE(2, 16); // executable
  header.writeUInt16LE(0x3e, 18); // x86-64
  header.writeUInt32LE(1, 20);
  return Buffer.concat([header, Buffer.from('31ff b83c000000 0f05'.replaceAll(' ', ''), 'hex')]);
}

/** A Windows executable: MZ header, DOS stub, PE header for x86-64. */
export function portableExecutable(): Buffer {
  const file = Buffer.alloc(0x98);
  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(0x80, 0x3c);
  file.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  file.write('PE\0\0', 0x80, 'latin1');
  file.writeUInt16LE(0x8664, 0x84);
  return file;
}

/** The PDF with `payload` after its %%EOF. */
export function pdfFollowedBy(payload: Buffer | string): Buffer {
  return Buffer.concat([onePagePdf(), Buffer.from(payload)]);
}

/** A one-page PDF whose catalogue opens on the given action. */
export function pdfOpening(action: string): Buffer {
  return onePagePdf(`/OpenAction ${action} `);
}

/** A PDF whose only script is object 6, stored in an object stream encoded by `encode`, under `dictionary`. */
export function pdfWithHiddenScript(dictionary: string, encode?: (data: Buffer) => Buffer): Buffer {
  const hidden = objectStream([[6, SCRIPT_ACTION]], encode);
  return onePagePdf('/OpenAction 6 0 R ', [
    pdfStream(`${dictionary} /N 1 /First ${hidden.first}`, hidden.data),
  ]);
}

export function padTo(size: number, file: Buffer): Buffer {
  return Buffer.concat([file, Buffer.alloc(size - file.length, 0x20)]);
}

/** Spending the real 1 GiB PDF inspection budget takes seconds; the same check refuses past a smaller one. */
export const TEST_PDF_BUDGET = 16 * 1024 * 1024;

export async function withPdfDecodingBudget(
  budget: number | undefined,
  run: () => Promise<void>,
): Promise<void> {
  if (budget === undefined) return run();
  const real = PDF_INSPECTION_LIMITS.decodedBytes;
  PDF_INSPECTION_LIMITS.decodedBytes = budget;
  try {
    await run();
  } finally {
    PDF_INSPECTION_LIMITS.decodedBytes = real;
  }
}

// ---------------------------------------------------------------------------
// The corpus

export function refuse(name: string, filename: string, build: HostileFile['build']): HostileFile {
  return { name, filename, build, outcome: { is: 'refused' } };
}

export function refuseAsTooLarge(name: string, filename: string, build: HostileFile['build']): HostileFile {
  return { name, filename, build, outcome: { is: 'refused as too large' } };
}

export function accept(
  name: string,
  filename: string,
  build: HostileFile['build'],
  outcome: Outcome,
): HostileFile {
  return { name, filename, build, outcome };
}
