const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * COPY ends each CSV line with LF; RFC 4180, and every other CSV Florin
 * writes, with CRLF. This turns one into the other chunk by chunk, as the
 * bytes stream past: an LF inside a quoted cell is part of the cell and
 * stays as it is (a quote mark toggles quoting; a doubled one toggles it
 * twice). Chunks may split anywhere, so whether a quote is open carries over.
 */
export function crlfLineEnds(): (chunk: Buffer) => Buffer {
  let quoted = false;
  return (chunk) => {
    let lineEnds = 0;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) lineEnds += 1;
    const out = Buffer.allocUnsafe(chunk.length + lineEnds);
    let written = 0;
    let from = 0;
    let quote = chunk.indexOf(QUOTE);
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) {
      while (quote !== -1 && quote < at) {
        quoted = !quoted;
        quote = chunk.indexOf(QUOTE, quote + 1);
      }
      if (quoted) continue;
      written += chunk.copy(out, written, from, at);
      out[written++] = CR;
      out[written++] = LF;
      from = at + 1;
    }
    for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) quoted = !quoted;
    written += chunk.copy(out, written, from);
    return out.subarray(0, written);
  };
}
