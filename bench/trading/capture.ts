/**
 * The app's statements in full (text and parameters, in the order sent), captured in the server's process
 * while the benchmark asks: what one warm instant execution sends, to print beside the pgbench script of
 * the same statements (execution-script.ts). Kept apart from protocol.ts's messages, which the whole
 * trading benchmark shares.
 */
export type Statement = { text: string; values: (string | null)[] };

export type CaptureMessage = { type: 'capture'; on: boolean };
export type CapturedMessage = { type: 'captured'; statements: Statement[] };

/** A statement's text on one line, its whitespace collapsed: the shape compared with the script's. */
export const shapeOf = (text: string) => text.replace(/\s+/g, ' ').trim();

/** "begin", "insert journals", "select orders for update", … from a statement's text. */
export function label(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
  const table = /\b(?:into|from|update)\s+"?(\w+)"?/i.exec(text)?.[1];
  const forUpdate = /\bfor update\b/i.test(text) ? ' for update' : '';
  return `${verb}${table ? ` ${table}` : ''}${forUpdate}`;
}
