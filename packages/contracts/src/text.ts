import { z } from 'zod';

/**
 * The one rule for text people type that others read (issue 40): names go into mail subjects
 * and greetings, free text into the back office. Control characters break lines (a header
 * injection); format characters are invisible, and the bidirectional overrides (U+202A–202E)
 * and isolates (U+2066–2069) reverse how the text after them reads ("Urgent\u202Ecod.exe").
 */
export const TEXT_RULE_TEXTS = {
  nameInvalid: 'Please enter a name without line breaks or invisible characters.',
  textInvalid: 'Please remove the invisible or text-direction characters from this text.',
} as const;

/** Any control (\p{Cc}) or format (\p{Cf}) character: a name is one line of visible characters. */
export const CONTROL_CHARACTER = /[\p{Cc}\p{Cf}]/u;

/**
 * What free text may not hold: the same, except line breaks and tabs, and the zero-width
 * (non-)joiners that emoji sequences and scripts such as Persian are spelt with.
 */
const FREE_TEXT_REFUSED = /(?![\t\n\r\u200c\u200d])[\p{Cc}\p{Cf}]/u;

/** What shows nothing on its own: spaces, control and format characters, combining marks, blank fillers. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800]/gu;

/** Whether `text` has nothing a reader would see (only spaces, zero-width or combining characters). */
export function isInvisibleText(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}

type TextLimits = { required: string; tooLong: string; max: number; invalid?: string };

/** Trimmed text that is required (only invisible characters counts as empty), bounded, without `refused`. */
function visibleTextSchema(refused: RegExp, { required, tooLong, max, invalid }: Required<TextLimits>) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { message: required, abort: true })
    .max(max, tooLong)
    .refine((value) => !isInvisibleText(value), { message: required, abort: true })
    .refine((value) => !refused.test(value), invalid);
}

/**
 * A person's or a company's name, trimmed: required (a name of only invisible characters is
 * treated as empty), at most `max` characters, one line without invisible characters.
 */
export function nameSchema({ invalid = TEXT_RULE_TEXTS.nameInvalid, ...limits }: TextLimits) {
  return visibleTextSchema(CONTROL_CHARACTER, { ...limits, invalid });
}

/** Free text (a message, a reason): lines allowed, text-direction and other hidden characters not. */
export function freeTextSchema({ invalid = TEXT_RULE_TEXTS.textInvalid, ...limits }: TextLimits) {
  return visibleTextSchema(FREE_TEXT_REFUSED, { ...limits, invalid });
}
