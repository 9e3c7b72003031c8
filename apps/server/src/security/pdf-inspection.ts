import zlib from 'node:zlib';
import { endOfJpeg } from './image-structure.js';

/**
 * Decides whether an uploaded PDF is free of active content, for the upload
 * gate (uploads.ts). It refuses rather than sanitises, and it does not trust
 * the file's own structure: a reader finds objects at offsets the file
 * chooses, so whatever could hide something (object streams, a lying
 * /Length, filters named through indirect references, #xx-escaped names) is
 * decoded and scanned whichever dictionary claims it.
 *
 * What is scanned:
 * - the whole file, byte for byte, for every LONG_NAME;
 * - the whole file minus proven image or compressed data for SHORT_NAMES:
 *   two or three letters turn up by chance in random bytes, so they are only
 *   looked for where PDF syntax can be;
 * - the inflated output of every zlib stream that starts after a `stream`
 *   keyword (read to the end of the zlib data, whatever /Length says):
 *   LONG_NAMES in all of it, every name in output that reads as text (object
 *   and content streams), and output compressed again is inflated again;
 * - when the file names a text encoding (ASCIIHex, ASCII85), every stream
 *   decoded with it as well;
 * - the target of every URI action, wherever names are looked for, decoded as
 *   a reader decodes it (only web and e-mail links pass);
 * - what follows the last %%EOF, and the file's end for a ZIP archive
 *   (polyglots).
 */

/** Names that run code, open or carry other files, or hide content: refused wherever they appear. */
const LONG_NAMES = new Set([
  'JavaScript',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'SubmitForm',
  'ImportData',
  // Opening another document; a remote one can leak the reviewer's network credentials.
  'GoToR',
  'GoToE',
  // Encrypted content cannot be inspected.
  'Encrypt',
  'Crypt',
  // Filters not decoded here, so an object stream behind them could hide anything.
  'LZWDecode',
  'RunLengthDecode',
]);

/** Short names (and abbreviations of the filters above) that only count where PDF syntax can be. */
const SHORT_NAMES = new Set(['JS', 'XFA', 'LZW', 'RL']);

/** Text encodings of streams; once a file names one, every stream is also decoded with it. */
const TEXT_FILTERS = new Set(['ASCIIHexDecode', 'AHx', 'ASCII85Decode', 'A85']);

export type PdfInspectionLimits = {
  /** Total bytes decoded while inspecting one file (decompression bombs, deliberately slow files). */
  decodedBytes: number;
  /** Total decoded bytes held in memory for a closer look. */
  keptBytes: number;
};

export const PDF_INSPECTION_LIMITS: PdfInspectionLimits = {
  decodedBytes: 1024 * 1024 * 1024,
  keptBytes: 64 * 1024 * 1024,
};

/** Filter chains deeper than this are not followed. */
const MAX_DECODE_DEPTH = 4;

class RefusedPdf extends Error {}

type Inspection = {
  limits: PdfInspectionLimits;
  decodedBytes: number;
  keptBytes: number;
  /** Decode every stream with the text encodings too, keeping all inflated output for it. */
  decodesText: boolean;
  /** A text encoding was named in decoded output, so a pass with decodesText is needed. */
  foundTextFilter: boolean;
};

/**
 * True when the bytes are a PDF (header and %%EOF) and nothing else, with
 * none of the refused names and only web links anywhere.
 */
export async function isSafePdf(
  bytes: Buffer,
  limits: PdfInspectionLimits = PDF_INSPECTION_LIMITS,
): Promise<boolean> {
  const latin1 = bytes.toString('latin1');
  if (!latin1.startsWith('%PDF-') || !latin1.includes('%%EOF')) return false;
  if (isAlsoAnotherFile(bytes, latin1)) return false;
  try {
    let namesTextFilter = false;
    for (const name of pdfNames(latin1)) {
      if (LONG_NAMES.has(name)) return false;
      if (TEXT_FILTERS.has(name)) namesTextFilter = true;
    }
    const inspection = await inspectStreams(bytes, latin1, limits, namesTextFilter);
    if (inspection.foundTextFilter) await inspectStreams(bytes, latin1, limits, true);
    return true;
  } catch (error) {
    if (error instanceof RefusedPdf) return false;
    throw error;
  }
}

async function inspectStreams(
  bytes: Buffer,
  latin1: string,
  limits: PdfInspectionLimits,
  decodesText: boolean,
): Promise<Inspection> {
  const inspection: Inspection = {
    limits,
    decodedBytes: 0,
    keptBytes: 0,
    decodesText,
    foundTextFilter: false,
  };
  /** [start, end) ranges proven to hold image, compressed or encoded data. */
  const dataRanges: Array<[number, number]> = [];
  for (const start of streamDataStarts(latin1)) {
    if (isZlibHeader(bytes, start)) {
      const consumed = await inflateAndInspect(bytes.subarray(start), 1, inspection);
      if (consumed !== undefined) dataRanges.push([start, start + consumed]);
    } else if (bytes[start] === 0xff && bytes[start + 1] === 0xd8) {
      const end = endOfJpeg(bytes, start);
      if (end !== undefined) dataRanges.push([start, end]);
    }
    if (decodesText) {
      await inspectDecoded(decodeAsciiHex(bytes, start, inspection), 1, inspection);
      const ascii85 = decodeAscii85(bytes, start, inspection);
      await inspectDecoded(ascii85.decoded, 1, inspection);
      if (ascii85.strictEnd !== undefined) dataRanges.push([start, ascii85.strictEnd]);
    }
  }
  const syntax = withoutRanges(latin1, dataRanges);
  assertNoNameFrom(syntax, SHORT_NAMES);
  assertOnlyWebLinks(syntax);
  return inspection;
}

/** A ZIP reader finds an archive by its end record, within the last 64 KiB (a comment's most) and 22 bytes. */
const ZIP_END_RECORD = Buffer.from('PK\x05\x06', 'latin1');
const ZIP_END_REACH = 0xffff + 22;

/**
 * Polyglots (issue 15): bytes after the last %%EOF other than whitespace, as
 * after a PNG's IEND, are there for another program (a ZIP, an executable);
 * and a ZIP archive whose end record sits near the end of the file, even
 * inside a stream, makes the stored PDF a ZIP as well. Four given bytes turn
 * up by chance in the last 64 KiB of binary data about once in 65,000 files.
 */
function isAlsoAnotherFile(bytes: Buffer, latin1: string): boolean {
  const afterEof = latin1.slice(latin1.lastIndexOf('%%EOF') + '%%EOF'.length);
  if (!/^[\0\t\n\f\r ]*$/.test(afterEof)) return true;
  return bytes.includes(ZIP_END_RECORD, Math.max(0, bytes.length - ZIP_END_REACH));
}

/** Where each stream's data begins: after every `stream` keyword (not `endstream`) and its line end. */
function* streamDataStarts(latin1: string): Generator<number> {
  for (const match of latin1.matchAll(/(?<!end)stream[\0\t\n\f\r ]*/g)) yield match.index + match[0].length;
}

/** The text with the ranges cut out and a space at each cut, so no name forms across one. */
function withoutRanges(latin1: string, ranges: Array<[number, number]>): string {
  const pieces: string[] = [];
  let offset = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start > offset) pieces.push(latin1.slice(offset, start));
    offset = Math.max(offset, end);
  }
  pieces.push(latin1.slice(offset));
  return pieces.join(' ');
}

const NAME_TOKEN = /\/([^\0\t\n\f\r ()<>[\]{}/%]*)/g;

/** Every name token (`/Name`), with `#xx` escapes decoded as readers do (`/J#61vaScript` is /JavaScript). */
function* pdfNames(text: string): Generator<string> {
  for (const match of text.matchAll(NAME_TOKEN)) yield decodeName(match[1] ?? '');
}

function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;
}

const WEB_LINK = /^(?:https?:\/\/|mailto:)/i;

/**
 * A URI action may open a web page or an e-mail, nothing else (issue 15): a
 * file:, smb: or \\server target opens another file or leaks the reviewer's
 * network credentials, as /GoToR would, and javascript: runs script in a
 * reader that follows it. Targets are decoded as readers decode them (string
 * escapes, hex strings), so the markup check's `javascript:` cannot be
 * written around; one given by reference (`/URI 7 0 R`) cannot be checked
 * here and is refused, and a relative one, which a /Base could send
 * anywhere, is not a web link.
 */
function assertOnlyWebLinks(text: string): void {
  for (const match of text.matchAll(NAME_TOKEN)) {
    if (decodeName(match[1] ?? '') !== 'URI') continue;
    const target = uriTarget(text, match.index + match[0].length);
    if (target !== undefined && !WEB_LINK.test(target)) throw new RefusedPdf();
  }
}

const SPACE_AND_COMMENTS = /(?:[\0\t\n\f\r ]|%[^\r\n]*)*/y;

/**
 * The string after a /URI name, decoded; '' when it cannot be read (a
 * reference, an unterminated string); undefined when the name is not
 * followed by a target (`/S /URI`, the catalogue's `/URI << /Base … >>`).
 */
function uriTarget(text: string, from: number): string | undefined {
  SPACE_AND_COMMENTS.lastIndex = from;
  SPACE_AND_COMMENTS.exec(text);
  const start = SPACE_AND_COMMENTS.lastIndex;
  const first = text[start] ?? '';
  if (first === '(') return literalString(text, start) ?? '';
  if (first === '<' && text[start + 1] !== '<') return hexString(text, start) ?? '';
  if (/[0-9]/.test(first)) return '';
  return undefined;
}

const STRING_ESCAPES: Partial<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/**
 * A literal string `( … )` starting at `start`: balanced parentheses,
 * backslash and octal escapes, line continuations.
 */
function literalString(text: string, start: number): string | undefined {
  let depth = 0;
  let value = '';
  for (let offset = start; offset < text.length; offset += 1) {
    const char = text[offset] ?? '';
    if (char === '\\') {
      const next = text[offset + 1] ?? '';
      const octal = /^[0-7]{1,3}/.exec(text.slice(offset + 1, offset + 4))?.[0];
      if (octal) {
        value += String.fromCharCode(parseInt(octal, 8) & 0xff);
        offset += octal.length;
      } else if (next === '\r' || next === '\n') {
        offset += next === '\r' && text[offset + 2] === '\n' ? 2 : 1;
      } else {
        value += STRING_ESCAPES[next] ?? next;
        offset += 1;
      }
    } else if (char === '(') {
      depth += 1;
      if (depth > 1) value += char;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) return value;
      value += char;
    } else value += char;
  }
  return undefined;
}

/** A hex string `< … >` at `start`; anything but hex digits is skipped, an odd last digit padded with 0. */
function hexString(text: string, start: number): string | undefined {
  const end = text.indexOf('>', start);
  if (end < 0) return undefined;
  const digits = text.slice(start + 1, end).replace(/[^0-9A-Fa-f]/g, '');
  return Buffer.from(digits.length % 2 === 0 ? digits : `${digits}0`, 'hex').toString('latin1');
}

function assertNoNameFrom(text: string, ...refused: Array<Set<string>>): void {
  for (const name of pdfNames(text)) if (refused.some((set) => set.has(name))) throw new RefusedPdf();
}

/**
 * Decoded stream data: every name counts when it reads as text (binary data
 * is only checked for LONG_NAMES), and it is decoded further.
 */
async function inspectDecoded(decoded: Buffer, depth: number, inspection: Inspection): Promise<void> {
  if (decoded.length === 0) return;
  const text = decoded.toString('latin1');
  const readsAsText = createTextClassifier()(decoded);
  for (const name of pdfNames(text)) {
    if (LONG_NAMES.has(name) || (readsAsText && SHORT_NAMES.has(name))) throw new RefusedPdf();
    if (readsAsText && TEXT_FILTERS.has(name) && !inspection.decodesText) inspection.foundTextFilter = true;
  }
  if (readsAsText) assertOnlyWebLinks(text);
  if (depth >= MAX_DECODE_DEPTH) return;
  if (isZlibHeader(decoded, 0)) await inflateAndInspect(decoded, depth + 1, inspection);
  if (inspection.decodesText) {
    await inspectDecoded(decodeAsciiHex(decoded, 0, inspection), depth + 1, inspection);
    await inspectDecoded(decodeAscii85(decoded, 0, inspection).decoded, depth + 1, inspection);
  }
}

/**
 * Inflates `data` to the end of its zlib stream (what follows is ignored, as
 * a reader ignores it), checking all output for LONG_NAMES and passing output
 * that reads as text or is compressed again to inspectDecoded. A damaged
 * stream yields what came before the damage, as a lenient reader would show
 * it. Returns the compressed bytes consumed, or undefined when the stream did
 * not end cleanly.
 */
async function inflateAndInspect(
  data: Buffer,
  depth: number,
  inspection: Inspection,
): Promise<number | undefined> {
  const { kept, consumed } = await new Promise<{ kept: Buffer[]; consumed: number | undefined }>(
    (resolve, reject) => {
      const inflate = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
      const keptChunks: Buffer[] = [];
      const classify = inspection.decodesText ? () => true : createKeepClassifier();
      let carry = '';
      let isSettled = false;
      const settle = (consumedBytes: number | undefined, error?: Error) => {
        if (isSettled) return;
        isSettled = true;
        if (error) reject(error);
        else resolve({ kept: keptChunks, consumed: consumedBytes });
      };
      inflate.on('data', (chunk: Buffer) => {
        try {
          spend(inspection, chunk.length);
          // The carry lets a name split across two chunks still be seen.
          const text = carry + chunk.toString('latin1');
          assertNoNameFrom(text, LONG_NAMES);
          carry = text.slice(-64);
          if (classify(chunk)) {
            inspection.keptBytes += chunk.length;
            if (inspection.keptBytes > inspection.limits.keptBytes) throw new RefusedPdf();
            keptChunks.push(chunk);
          }
        } catch (error) {
          settle(undefined, error instanceof Error ? error : new RefusedPdf());
          inflate.destroy();
        }
      });
      inflate.on('end', () => settle(inflate.bytesWritten));
      inflate.on('error', () => settle(undefined));
      inflate.on('close', () => settle(undefined));
      inflate.end(data);
    },
  );
  if (kept.length > 0) await inspectDecoded(Buffer.concat(kept), depth, inspection);
  return consumed;
}

const PDF_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/**
 * Reads a stream's first bytes: after whitespace and comments, is the first
 * byte printable? Object streams must start with numbers, and content
 * streams, XMP and text encodings are text too; pixel, font and
 * cross-reference data start with a binary byte. Fed chunk by chunk.
 */
function createTextClassifier(): (chunk: Buffer) => boolean {
  let decision: boolean | undefined;
  let inComment = false;
  return (chunk) => {
    for (let index = 0; decision === undefined && index < chunk.length; index += 1) {
      const byte = chunk[index] ?? 0;
      if (inComment) inComment = byte !== 0x0a && byte !== 0x0d;
      else if (byte === 0x25) inComment = true;
      else if (!PDF_WHITESPACE.has(byte)) decision = byte >= 0x21 && byte <= 0x7e;
    }
    return decision ?? false;
  };
}

/** Keeps inflated output that is compressed again or reads as text; drops the rest once it is known. */
function createKeepClassifier(): (chunk: Buffer) => boolean {
  const readsAsText = createTextClassifier();
  let isFirstChunk = true;
  let isCompressed = false;
  return (chunk) => {
    if (isFirstChunk) isCompressed = isZlibHeader(chunk, 0);
    isFirstChunk = false;
    return isCompressed || readsAsText(chunk);
  };
}

/** Counts decoding work against the file's budget. */
function spend(inspection: Inspection, bytes: number): void {
  inspection.decodedBytes += bytes;
  if (inspection.decodedBytes > inspection.limits.decodedBytes) throw new RefusedPdf();
}

function isZlibHeader(bytes: Buffer, offset: number): boolean {
  const method = bytes[offset];
  const flags = bytes[offset + 1];
  if (method === undefined || flags === undefined) return false;
  return (method & 0x0f) === 8 && method >> 4 <= 7 && (method * 256 + flags) % 31 === 0;
}

/** Decodes hex digit pairs up to `>`, skipping anything else, as lenient readers do. */
function decodeAsciiHex(bytes: Buffer, start: number, inspection: Inspection): Buffer {
  const out: number[] = [];
  let high: number | undefined;
  let index = start;
  for (; index < bytes.length && bytes[index] !== 0x3e; index += 1) {
    const digit = hexDigit(bytes[index] ?? 0);
    if (digit === undefined) continue;
    if (high === undefined) high = digit;
    else {
      out.push(high * 16 + digit);
      high = undefined;
    }
  }
  if (high !== undefined) out.push(high * 16);
  spend(inspection, index - start);
  return Buffer.from(out);
}

function hexDigit(byte: number): number | undefined {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return undefined;
}

/**
 * Decodes ASCII85 up to `~`, skipping bytes outside its alphabet. `strictEnd`
 * is the end of the `~>` terminator when nothing but ASCII85 and whitespace
 * came before it: that run is encoded data, not PDF syntax.
 */
function decodeAscii85(
  bytes: Buffer,
  start: number,
  inspection: Inspection,
): { decoded: Buffer; strictEnd?: number } {
  const out: number[] = [];
  const group: number[] = [];
  const flush = (byteCount: number) => {
    let value = 0;
    for (let digit = 0; digit < 5; digit += 1) value = value * 85 + (group[digit] ?? 84);
    for (let index = 0; index < byteCount; index += 1) out.push(Math.floor(value / 256 ** (3 - index)) % 256);
    group.length = 0;
  };
  let isStrict = true;
  let index = start;
  for (; index < bytes.length && bytes[index] !== 0x7e; index += 1) {
    const byte = bytes[index] ?? 0;
    if (byte === 0x7a && group.length === 0) out.push(0, 0, 0, 0);
    else if (byte >= 0x21 && byte <= 0x75) {
      group.push(byte - 0x21);
      if (group.length === 5) flush(4);
    } else if (!PDF_WHITESPACE.has(byte)) isStrict = false;
  }
  if (group.length > 1) flush(group.length - 1);
  spend(inspection, index - start);
  const isTerminated = bytes[index] === 0x7e && bytes[index + 1] === 0x3e;
  return { decoded: Buffer.from(out), ...(isStrict && isTerminated ? { strictEnd: index + 2 } : {}) };
}
