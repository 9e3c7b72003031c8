import type { SanctionsGroupType } from '@florin/contracts';

/**
 * Name screening against the consolidated list, in memory and pure. Names are
 * compared as sets of normalised tokens (case, accents, punctuation, spacing
 * and word order do not matter). A person matches a listed individual's name
 * or alias when every listed token is in the person's name, or when the person
 * gave fewer names than the list (no middle names) but every one of them, the
 * listed surname included, is among the listed ones. A date of birth excludes
 * a designation only when both are known and none of its listed dates can be
 * the person's. A company matches an Entity when every listed token, legal
 * forms (Ltd, LLC, …) aside, is in the company's name.
 */

/** Letters NFKD does not take apart into a base letter and a mark. */
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};

/** Lower case, no accents, apostrophes and dots dropped (O'Brien = OBrien), any other non-letter a space. */
export function normaliseName(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþıħ]/g, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(/['’‘`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return folded === '' ? [] : folded.split(' ');
}

/** Words that say what kind of company it is, not which: left out on both sides when comparing companies. */
const LEGAL_FORMS = new Set([
  'ltd',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'jsc',
  'pjsc',
  'ojsc',
  'cjsc',
  'ooo',
  'ao',
  'pao',
  'zao',
  'oao',
  'gmbh',
  'ag',
  'sa',
  'sarl',
  'srl',
  'bv',
  'nv',
  'fze',
  'fzco',
  'fzc',
  'the',
  'and',
  'of',
]);

export function companyTokens(name: string): string[] {
  const tokens = normaliseName(name);
  const core = tokens.filter((token) => !LEGAL_FORMS.has(token));
  // A name made only of such words ("The Company Ltd") is compared as it is.
  return core.length > 0 ? core : tokens;
}

/** A date as the list gives it: any part may be unknown (00 in the file). */
export type PartialDate = { year: number | null; month: number | null; day: number | null };

/** dd/mm/yyyy with 00 for unknown parts, or a bare year; anything else is no date at all. */
export function parsePartialDate(value: string | null): PartialDate | null {
  if (!value) return null;
  const full = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  const yearOnly = /^(\d{4})$/.exec(value.trim());
  if (!full && !yearOnly) return null;
  const known = (text: string | undefined) =>
    text === undefined || Number(text) === 0 ? null : Number(text);
  const date = full
    ? { day: known(full[1]), month: known(full[2]), year: known(full[3]) }
    : { day: null, month: null, year: known(yearOnly?.[1]) };
  return date.year === null && date.month === null && date.day === null ? null : date;
}

/** Whether a YYYY-MM-DD birth date agrees with every known part of a listed date. */
export function canBeSameDate(birthdate: string, listed: PartialDate): boolean {
  const [year, month, day] = birthdate.split('-').map(Number);
  return (
    (listed.year === null || listed.year === year) &&
    (listed.month === null || listed.month === month) &&
    (listed.day === null || listed.day === day)
  );
}

/** One name of a designation, prepared for comparison. */
type ListedName = { display: string; tokens: ReadonlySet<string>; surname: readonly string[] };

/** A designation: every name and alias, and every date of birth, of one Group ID. */
export type Designation = {
  groupId: string;
  groupType: SanctionsGroupType;
  names: ListedName[];
  dobs: PartialDate[];
  dobsAsListed: string[];
  regime: string | null;
};

/** What the index is built from: the rows of the active list, as stored. */
export type IndexEntry = {
  groupId: string;
  groupType: SanctionsGroupType;
  surname: string;
  givenNames: string;
  dob: string | null;
  regime: string | null;
};

export type SanctionsIndex = {
  /** token → the designations with a name holding it, for Individual and Entity rows apart. */
  individuals: Map<string, Set<Designation>>;
  entities: Map<string, Set<Designation>>;
};

export type NameMatch = { designation: Designation; listedName: string };

/** The name as a reader writes it: given names then the surname. */
export function displayName(entry: Pick<IndexEntry, 'surname' | 'givenNames'>): string {
  return [entry.givenNames, entry.surname].filter((part) => part !== '').join(' ');
}

export function buildIndex(entries: readonly IndexEntry[]): SanctionsIndex {
  const designations = new Map<string, Designation>();
  for (const entry of entries) {
    // Ships are screened against nothing we hold: customers are people and companies.
    if (entry.groupType === 'Ship') continue;
    let designation = designations.get(entry.groupId);
    if (!designation) {
      designation = {
        groupId: entry.groupId,
        groupType: entry.groupType,
        names: [],
        dobs: [],
        dobsAsListed: [],
        regime: entry.regime,
      };
      designations.set(entry.groupId, designation);
    }
    const display = displayName(entry);
    const tokens =
      entry.groupType === 'Entity'
        ? companyTokens(display)
        : [...normaliseName(entry.givenNames), ...normaliseName(entry.surname)];
    if (tokens.length > 0) {
      designation.names.push({ display, tokens: new Set(tokens), surname: normaliseName(entry.surname) });
    }
    const dob = parsePartialDate(entry.dob);
    if (dob && entry.dob && !designation.dobsAsListed.includes(entry.dob)) {
      designation.dobs.push(dob);
      designation.dobsAsListed.push(entry.dob);
    }
  }
  const index: SanctionsIndex = { individuals: new Map(), entities: new Map() };
  for (const designation of designations.values()) {
    const byToken = designation.groupType === 'Entity' ? index.entities : index.individuals;
    for (const name of designation.names) {
      for (const token of name.tokens) {
        const holders = byToken.get(token) ?? new Set<Designation>();
        holders.add(designation);
        byToken.set(token, holders);
      }
    }
  }
  return index;
}

const isSubset = (small: Iterable<string>, large: ReadonlySet<string>) => {
  for (const token of small) if (!large.has(token)) return false;
  return true;
};

function personMatchesName(person: ReadonlySet<string>, listed: ListedName): boolean {
  // One listed word ("Hamza", a nickname) would match everyone who has it: too weak to act on alone.
  if (listed.tokens.size < 2) return false;
  if (isSubset(listed.tokens, person)) return true;
  // The person gave fewer names than the list: all theirs are listed, with the whole listed surname.
  return (
    person.size >= 2 && isSubset(person, listed.tokens) && listed.surname.every((token) => person.has(token))
  );
}

function candidates(byToken: Map<string, Set<Designation>>, tokens: readonly string[]): Set<Designation> {
  const found = new Set<Designation>();
  for (const token of tokens) for (const designation of byToken.get(token) ?? []) found.add(designation);
  return found;
}

/** The listed individuals a person (full name, date of birth if known) may be. */
export function screenPerson(
  index: SanctionsIndex,
  person: { name: string; birthdate: string | null },
): NameMatch[] {
  const tokens = normaliseName(person.name);
  const own = new Set(tokens);
  const matches: NameMatch[] = [];
  for (const designation of candidates(index.individuals, tokens)) {
    const name = designation.names.find((listed) => personMatchesName(own, listed));
    if (!name) continue;
    const { birthdate } = person;
    const isExcludedByBirth =
      birthdate !== null &&
      designation.dobs.length > 0 &&
      designation.dobs.every((dob) => !canBeSameDate(birthdate, dob));
    if (!isExcludedByBirth) matches.push({ designation, listedName: name.display });
  }
  return matches;
}

/** The listed entities a company may be. */
export function screenCompany(index: SanctionsIndex, companyName: string): NameMatch[] {
  const tokens = companyTokens(companyName);
  const own = new Set(tokens);
  const matches: NameMatch[] = [];
  for (const designation of candidates(index.entities, tokens)) {
    const name = designation.names.find((listed) => isSubset(listed.tokens, own));
    if (name) matches.push({ designation, listedName: name.display });
  }
  return matches;
}
