import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
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
import { isSafePdf } from './pdf-inspection.js';
import { checkUpload, MAX_IMAGE_SIDE, MAX_UPLOAD_BYTES } from './uploads.js';

// Every file here is built from real bytes (hostile-files.ts), so each case shows exactly what it carries.

describe('accepted uploads', () => {
  it('accepts a PNG and stores it re-encoded as a PNG of the same size', async () => {
    const checked = await checkUpload({ filename: 'passport.png', bytes: await png(12, 9) });
    expect(checked.kind).toBe('png');
    expect(checked.contentType).toBe('image/png');
    expect(await sharp(checked.bytes).metadata()).toMatchObject({ format: 'png', width: 12, height: 9 });
  });

  it.each(['selfie.jpg', 'selfie.jpeg', 'SELFIE.JPG', 'Selfie.JpEg'])(
    'accepts a JPEG named %s, whatever the case of its extension',
    async (filename) => {
      const checked = await checkUpload({ filename, bytes: await jpeg() });
      expect(checked).toMatchObject({ kind: 'jpeg', contentType: 'image/jpeg' });
      expect((await sharp(checked.bytes).metadata()).format).toBe('jpeg');
    },
  );

  it('accepts a PDF and stores it byte for byte', async () => {
    const document = onePagePdf('/OpenAction [3 0 R /Fit] ');
    const checked = await checkUpload({ filename: 'statement.PDF', bytes: document });
    expect(checked).toEqual({ kind: 'pdf', contentType: 'application/pdf', bytes: document });
  });

  it('accepts a file of exactly 10 MB', async () => {
    const padding = Buffer.alloc(MAX_UPLOAD_BYTES - onePagePdf().length, ' ');
    const document = onePagePdf();
    const atLimit = Buffer.concat([document.subarray(0, 15), padding, document.subarray(15)]);
    expect(atLimit.length).toBe(MAX_UPLOAD_BYTES);
    expect((await checkUpload({ filename: 'scan.pdf', bytes: atLimit })).bytes.length).toBe(MAX_UPLOAD_BYTES);
  });
});

describe('image metadata', () => {
  it('removes EXIF and GPS data from a photo', async () => {
    const tagged = await sharp(await jpeg(16, 16))
      .withExif({
        IFD0: { Copyright: 'Holder Name', Make: 'PhoneMaker' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2652/100', GPSLongitudeRef: 'W' },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    expect(tagged.includes('PhoneMaker')).toBe(true);

    const checked = await checkUpload({ filename: 'id-front.jpg', bytes: tagged });
    const metadata = await sharp(checked.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(checked.bytes.includes('Exif')).toBe(false);
    expect(checked.bytes.includes('PhoneMaker')).toBe(false);
    expect(checked.bytes.includes('Holder Name')).toBe(false);
  });

  it('turns a photo upright from its EXIF orientation before dropping the tag', async () => {
    const sideways = await sharp(await jpeg(40, 20))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const checked = await checkUpload({ filename: 'licence.jpg', bytes: sideways });
    const metadata = await sharp(checked.bytes).metadata();
    expect({ width: metadata.width, height: metadata.height, orientation: metadata.orientation }).toEqual({
      width: 20,
      height: 40,
      orientation: undefined,
    });
  });

  it('removes text chunks from a PNG', async () => {
    const withText = withPngChunk(
      await png(),
      pngChunk('tEXt', Buffer.from('Comment\0home address 1 High St')),
    );
    expect(withText.includes('High St')).toBe(true);
    const checked = await checkUpload({ filename: 'proof.png', bytes: withText });
    expect(checked.bytes.includes('High St')).toBe(false);
    expect(checked.bytes.includes('tEXt')).toBe(false);
  });

  it(`scales an image longer than ${MAX_IMAGE_SIDE} px down to ${MAX_IMAGE_SIDE} px`, async () => {
    const checked = await checkUpload({ filename: 'scan.png', bytes: await png(MAX_IMAGE_SIDE + 500, 10) });
    const metadata = await sharp(checked.bytes).metadata();
    expect(metadata.width).toBe(MAX_IMAGE_SIDE);
  });
});

describe('refused by name or size', () => {
  it('refuses a file over 10 MB with 413 and the size message', async () => {
    await expectTooLarge({ filename: 'big.pdf', bytes: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x20) });
  });

  it('refuses an empty file', async () => {
    await expectUnsupported({ filename: 'empty.png', bytes: Buffer.alloc(0) });
  });

  it.each(['image.gif', 'image.exe', 'image', 'image.png.exe', 'image.svg', 'image.constructor'])(
    'refuses a valid PNG named %s',
    async (filename) => {
      await expectUnsupported({ filename, bytes: await png() });
    },
  );

  it('refuses a valid PDF named .exe', async () => {
    await expectUnsupported({ filename: 'statement.exe', bytes: onePagePdf() });
  });

  it('refuses content that is another allowed type than its name says', async () => {
    await expectUnsupported({ filename: 'photo.png', bytes: await jpeg() });
    await expectUnsupported({ filename: 'photo.jpg', bytes: await png() });
    await expectUnsupported({ filename: 'photo.pdf', bytes: await png() });
  });

  it('refuses a GIF renamed to .png', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    await expectUnsupported({ filename: 'animation.png', bytes: gif });
  });
});

describe('refused by content', () => {
  it('refuses an HTML page renamed to .png', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><body><script>fetch("/api")</script></body></html>');
    await expectUnsupported({ filename: 'evil.png', bytes: html });
  });

  it('refuses an SVG renamed to .png or .jpg', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>');
    await expectUnsupported({ filename: 'evil.png', bytes: svg });
    await expectUnsupported({ filename: 'evil.jpg', bytes: svg });
  });

  it('refuses a PNG with an HTML page after its IEND chunk (polyglot)', async () => {
    const polyglot = Buffer.concat([await png(), Buffer.from('<html><script>alert(1)</script></html>')]);
    await expectUnsupported({ filename: 'polyglot.png', bytes: polyglot });
  });

  it('refuses a PNG with any bytes after its IEND chunk', async () => {
    await expectUnsupported({
      filename: 'trailer.png',
      bytes: Buffer.concat([await png(), Buffer.from('ZZZZ')]),
    });
  });

  it('refuses a JPEG with HTML after its EOI marker', async () => {
    const polyglot = Buffer.concat([await jpeg(), Buffer.from('<iframe src="https://example.com">')]);
    await expectUnsupported({ filename: 'polyglot.jpg', bytes: polyglot });
  });

  it('refuses a JPEG with unmarked bytes after its EOI marker', async () => {
    await expectUnsupported({
      filename: 'trailer.jpg',
      bytes: Buffer.concat([await jpeg(), Buffer.from('ZZZZ')]),
    });
  });

  it('accepts a JPEG followed by a second complete JPEG, as phones write depth and gain maps, and keeps only the first', async () => {
    const checked = await checkUpload({
      filename: 'camera.jpg',
      bytes: Buffer.concat([await jpeg(30, 20), await jpeg(3, 2)]),
    });
    expect(await sharp(checked.bytes).metadata()).toMatchObject({ width: 30, height: 20 });
    expect(checked.bytes.indexOf(Buffer.from([0xff, 0xd8]), 2)).toBe(-1);
  });

  it('refuses an image whose metadata carries markup', async () => {
    const scripted = withPngChunk(
      await png(),
      pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>')),
    );
    await expectUnsupported({ filename: 'scripted.png', bytes: scripted });
    await expectUnsupported({
      filename: 'link.png',
      bytes: withPngChunk(await png(), pngChunk('tEXt', Buffer.from('URL\0JavaScript:alert(1)'))),
    });
  });

  it('refuses a truncated JPEG', async () => {
    const whole = await jpeg(64, 64);
    await expectUnsupported({ filename: 'cut.jpg', bytes: whole.subarray(0, whole.length - 40) });
  });

  it('refuses a PNG whose pixel data does not decode', async () => {
    const garbage = handmadePng(16, 16, [pngChunk('IDAT', Buffer.from('not deflate data at all'))]);
    await expectUnsupported({ filename: 'broken.png', bytes: garbage });
  });

  it('refuses a decompression bomb: a valid 100 KB PNG of 100 million black pixels', async () => {
    const side = 10_001; // just over MAX_IMAGE_PIXELS
    const bomb = handmadePng(side, side, [pngChunk('IDAT', await deflateZeros(side * (side + 1)))]);
    expect(bomb.length).toBeLessThan(200_000);
    await expectUnsupported({ filename: 'bomb.png', bytes: bomb });
  });
});

describe('PDF active content', () => {
  it('refuses a PDF that runs JavaScript on opening', async () => {
    await expectUnsupported({
      filename: 'statement.pdf',
      bytes: onePagePdf('/OpenAction 5 0 R ', ['<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>']),
    });
  });

  it.each([
    ['a launch action', '/OpenAction << /S /Launch /F (cmd.exe) >> '],
    ['embedded files', '/Names << /EmbeddedFiles << /Names [(a.exe) 5 0 R] >> >> '],
    ['an XFA form', '/AcroForm << /Fields [] /XFA 5 0 R >> '],
    ['a form that submits itself', '/OpenAction << /S /SubmitForm /F (https://example.com) >> '],
    ['a data import', '/OpenAction << /S /ImportData /F (data.fdf) >> '],
    ['a rich media annotation', '/AA << /O << /S /RichMedia >> >> '],
    [
      'a remote document link',
      '/OpenAction << /S /GoToR /F (\\\\\\\\server\\\\share\\\\a.pdf) /D [0 /Fit] >> ',
    ],
    ['a script on a page action', '/AA << /O << /JS (app.alert(1)) >> >> '],
  ])('refuses a PDF with %s', async (_label, entries) => {
    await expectUnsupported({ filename: 'document.pdf', bytes: onePagePdf(entries, ['<< >>']) });
  });

  it('refuses a PDF whose script hides inside a compressed object stream', async () => {
    const hidden = objectStream([[6, '<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>']]);
    const document = onePagePdf('/OpenAction 6 0 R ', [
      pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode`, hidden.data),
    ]);
    expect(document.includes('JavaScript')).toBe(false);
    await expectUnsupported({ filename: 'statement.pdf', bytes: document });
  });

  it('refuses a PDF whose names are hex-escaped', async () => {
    const escaped = onePagePdf('/OpenAction << /S /L#61unch /F (calc.exe) >> ');
    expect(escaped.includes('Launch')).toBe(false);
    await expectUnsupported({ filename: 'escaped.pdf', bytes: escaped });
    await expectUnsupported({
      filename: 'escaped.pdf',
      bytes: onePagePdf('/OpenAction << /S /#4A#61#76#61#53#63#72#69#70#74 /#4A#53 (x) >> '),
    });
  });

  it('refuses an encrypted PDF', async () => {
    const encryption = '<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>';
    await expectUnsupported({
      filename: 'locked.pdf',
      bytes: onePagePdf('', [encryption], '/Encrypt 5 0 R /ID [<01> <01>] '),
    });
  });

  it('refuses a PDF without %%EOF or without the %PDF- header', async () => {
    const document = onePagePdf();
    await expectUnsupported({
      filename: 'cut.pdf',
      bytes: document.subarray(0, document.lastIndexOf('%%EOF')),
    });
    await expectUnsupported({
      filename: 'shifted.pdf',
      bytes: Buffer.concat([Buffer.from('\n\n'), document]),
    });
  });

  it('refuses a PDF carrying an HTML page (PDF/HTML polyglot)', async () => {
    const document = onePagePdf('', ['(<html><script>alert(1)</script></html>)']);
    await expectUnsupported({ filename: 'polyglot.pdf', bytes: document });
  });

  it('accepts a PDF with a damaged compressed stream and refuses one whose damage comes after a hidden script', async () => {
    const damaged = zlib.deflateSync(Buffer.from('BT (Hello) Tj ET '.repeat(200)));
    const broken = onePagePdf('', [
      pdfStream('/Filter /FlateDecode', damaged.subarray(0, damaged.length - 30)),
    ]);
    expect((await checkUpload({ filename: 'damaged.pdf', bytes: broken })).kind).toBe('pdf');

    const hidden = objectStream([[6, `<< /S /JavaScript /JS (app.alert(1)) /Pad (${'x'.repeat(5000)}) >>`]]);
    const corrupted = Buffer.from(hidden.data);
    corrupted.fill(0xff, corrupted.length - 20, corrupted.length - 4);
    await expectUnsupported({
      filename: 'corrupted.pdf',
      bytes: onePagePdf('/OpenAction 6 0 R ', [
        pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode`, corrupted),
      ]),
    });
  });
});

describe('PDF inspection beyond the dictionaries', () => {
  it('refuses a script in an object stream that claims to be an image', async () => {
    const hidden = objectStream([[6, '<< /S /JavaScript /JS (app.alert(1)) >>']]);
    const document = onePagePdf('/OpenAction 6 0 R ', [
      pdfStream(
        `/Subtype /Image /Width 1 /Height 1 /N 1 /First ${hidden.first} /Filter /FlateDecode`,
        hidden.data,
      ),
    ]);
    await expectUnsupported({ filename: 'disguised.pdf', bytes: document });
  });

  it('refuses a bare /JS entry hidden in a compressed object stream', async () => {
    const hidden = objectStream([[6, '<< /O << /JS 7 0 R >> >>']]);
    const document = onePagePdf('/AA 6 0 R ', [
      pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter /FlateDecode`, hidden.data),
    ]);
    await expectUnsupported({ filename: 'page-action.pdf', bytes: document });
  });

  it('refuses a script behind two layers of compression', async () => {
    const hidden = objectStream([[6, '<< /S /JavaScript /JS (app.alert(1)) >>']], (data) =>
      zlib.deflateSync(zlib.deflateSync(data)),
    );
    const document = onePagePdf('/OpenAction 6 0 R ', [
      pdfStream(`/Type /ObjStm /N 1 /First ${hidden.first} /Filter [/FlateDecode /FlateDecode]`, hidden.data),
    ]);
    await expectUnsupported({ filename: 'layers.pdf', bytes: document });
  });

  it('refuses a script in an ASCII85 and Flate encoded object stream, and accepts such content streams', async () => {
    const ascii85 = (data: Buffer) => Buffer.from(`${encodeAscii85(zlib.deflateSync(data))}~>`, 'latin1');
    const hidden = objectStream([[6, '<< /S /JavaScript /JS (app.alert(1)) >>']], ascii85);
    await expectUnsupported({
      filename: 'encoded.pdf',
      bytes: onePagePdf('/OpenAction 6 0 R ', [
        pdfStream(
          `/Type /ObjStm /N 1 /First ${hidden.first} /Filter [/ASCII85Decode /FlateDecode]`,
          hidden.data,
        ),
      ]),
    });

    const content = ascii85(Buffer.from('BT /F1 12 Tf 72 712 Td (Statement) Tj ET\n'.repeat(2000)));
    const reportLabStyle = onePagePdf('', [pdfStream('/Filter [/ASCII85Decode /FlateDecode]', content)]);
    expect((await checkUpload({ filename: 'statement.pdf', bytes: reportLabStyle })).kind).toBe('pdf');
  });

  it('refuses a PDF using a filter it cannot look behind (LZW)', async () => {
    await expectUnsupported({
      filename: 'lzw.pdf',
      bytes: onePagePdf('', [
        pdfStream('/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', Buffer.from([0x80, 0x0b])),
      ]),
    });
  });

  it('finds a script in inflated data that starts like binary data', async () => {
    const disguised = Buffer.concat([Buffer.from([0x01, 0x02, 0x03]), Buffer.from('<< /S /JavaScript >>')]);
    await expectUnsupported({
      filename: 'binary.pdf',
      bytes: onePagePdf('', [pdfStream('/Filter /FlateDecode', zlib.deflateSync(disguised))]),
    });
  });

  it('is not fooled into refusing by short names that occur by chance in image data', async () => {
    const pixels = Buffer.concat([Buffer.from([0x01, 0x02]), Buffer.from(' /JS (x) /XFA [ ')]);
    const flateImage = pdfStream(
      '/Type /XObject /Subtype /Image /Width 6 /Height 3 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
      zlib.deflateSync(pixels),
    );
    const photo = await jpeg(8, 8);
    const comment = Buffer.from(' /JS (x) /XFA [ ', 'latin1');
    const commentHeader = Buffer.from([0xff, 0xfe, 0, 0]);
    commentHeader.writeUInt16BE(comment.length + 2, 2);
    const withComment = Buffer.concat([photo.subarray(0, 2), commentHeader, comment, photo.subarray(2)]);
    const jpegImage = pdfStream(
      '/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode',
      withComment,
    );
    const document = onePagePdf('', [flateImage, jpegImage]);
    expect(await isSafePdf(document)).toBe(true);
  });

  it('refuses a compression bomb once the decoding budget is spent', async () => {
    const bomb = onePagePdf('', [
      pdfStream('/Filter /FlateDecode', zlib.deflateSync(Buffer.alloc(4 * 1024 * 1024))),
    ]);
    expect(await isSafePdf(bomb, { decodedBytes: 1024 * 1024, keptBytes: 1024 * 1024 })).toBe(false);
    expect(await isSafePdf(bomb)).toBe(true);
  });

  it('refuses when more text must be held for inspection than the budget allows', async () => {
    const text = zlib.deflateSync(Buffer.from('1 0 0 1 0 0 cm\n'.repeat(100_000)));
    const document = onePagePdf('', [pdfStream('/Filter /FlateDecode', text)]);
    expect(await isSafePdf(document, { decodedBytes: 64 * 1024 * 1024, keptBytes: 64 * 1024 })).toBe(false);
    expect(await isSafePdf(document)).toBe(true);
  });
});
