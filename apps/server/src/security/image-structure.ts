/**
 * Where an image's own structure says it ends, so the upload gate can refuse
 * bytes smuggled after it (polyglots) and the PDF inspector can tell image
 * data from PDF syntax. Both walk the format's chunks or segments rather than
 * searching for an end marker, which can also occur inside the data.
 */

/** The offset just past the IEND chunk of the PNG at the start of `bytes`; undefined when its chunks are broken. */
export function endOfPng(bytes: Buffer): number | undefined {
  let offset = 8; // the signature
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const next = offset + 12 + length;
    if (next > bytes.length) return undefined;
    if (type === 'IEND') return next;
    offset = next;
  }
  return undefined;
}

/**
 * The offset just past the EOI marker of the JPEG starting at `start`; a
 * thumbnail inside EXIF does not end it early. Undefined when malformed or
 * truncated.
 */
export function endOfJpeg(bytes: Buffer, start = 0): number | undefined {
  if (bytes[start] !== 0xff || bytes[start + 1] !== 0xd8) return undefined;
  let offset = start + 2;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    while (bytes[offset] === 0xff) offset += 1; // fill bytes
    const marker = bytes[offset];
    if (marker === undefined) return undefined;
    offset += 1;
    if (marker === 0xd9) return offset;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // markers without a length
    if (offset + 2 > bytes.length) return undefined;
    const segmentEnd = offset + bytes.readUInt16BE(offset);
    if (segmentEnd > bytes.length) return undefined;
    offset = marker === 0xda ? endOfEntropyCodedData(bytes, segmentEnd) : segmentEnd;
  }
  return undefined;
}

/** Scan data ends at the first 0xFF that is neither a stuffed 0x00 nor a restart marker. */
function endOfEntropyCodedData(bytes: Buffer, from: number): number {
  let offset = from;
  for (;;) {
    offset = bytes.indexOf(0xff, offset);
    if (offset < 0) return bytes.length;
    const next = bytes[offset + 1];
    if (next === 0x00 || (next !== undefined && next >= 0xd0 && next <= 0xd7)) offset += 2;
    else return offset;
  }
}
