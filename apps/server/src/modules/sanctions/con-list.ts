import { SANCTIONS_TEXTS, type SanctionsGroupType } from '@florin/contracts';

/**
 * The UK government's consolidated list of financial sanctions targets as
 * OFSI publishes it (ConList.csv): a first line `Last Updated,dd/mm/yyyy`, a
 * header row, then one row per name or alias of each designation, the rows
 * of one designation sharing a Group ID. Columns are found by their header,
 * so the order (which OFSI has changed over the years) does not matter.
 */

/** One row of the file: a name (or alias) of a designated person, entity or ship. */
export type ConListEntry = {
  /** The line of the file the row starts on (1-based), for error messages and the record. */
  line: number;
  groupId: string;
  groupType: SanctionsGroupType;
  /** Name 6: the surname of an individual, empty for most entities and ships. */
  surname: string;
  /** Name 1 to Name 5, in order, joined by single spaces. */
  givenNames: string;
  title: string | null;
  /** As listed: dd/mm/yyyy with 00 for an unknown day or month. */
  dob: string | null;
  townOfBirth: string | null;
  countryOfBirth: string | null;
  nationality: string | null;
  aliasType: string | null;
  regime: string | null;
  listedOn: string | null;
};

export type ConList = {
  /** The file's Last Updated date, YYYY-MM-DD. */
  updatedOn: string;
  entries: ConListEntry[];
  counts: { rows: number; designations: number; individuals: number; entities: number; ships: number };
};

export type ConListResult = { ok: true; list: ConList } | { ok: false; errors: string[] };

/** More than this many row problems and the file is clearly something else: the first few are enough to say so. */
const MAX_REPORTED_ERRORS = 5;

const REQUIRED_COLUMNS = ['Name 6', 'Name 1', 'Group Type', 'Group ID'] as const;
const GIVEN_NAME_COLUMNS = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'] as const;
const GROUP_TYPES: Record<string, SanctionsGroupType> = {
  individual: 'Individual',
  entity: 'Entity',
  ship: 'Ship',
};

type CsvRecord = { line: number; fields: string[] };
type CsvResult = { ok: true; records: CsvRecord[] } | { ok: false; error: string };

/**
 * RFC 4180: fields separated by commas, a quoted field may hold commas,
 * quotes (doubled) and line breaks; records end with CRLF, LF or a lone CR.
 * Each record keeps the line it starts on.
 */
export function parseCsv(text: string): CsvResult {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inQuotes) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 1;
        } else inQuotes = false;
      } else {
        if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) line += 1;
        field += char;
      }
    } else if (char === '"' && field === '') {
      inQuotes = true;
      quoteLine = line;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else field += char;
  }
  if (inQuotes) return { ok: false, error: `Line ${quoteLine}: ${SANCTIONS_TEXTS.unclosedQuote}` };
  if (field !== '' || fields.length > 0) endRecord();
  return { ok: true, records };
}

/**
 * The file's text: UTF-8 (with or without a byte order mark), or, when it is
 * not valid UTF-8, Windows-1252 as a spreadsheet saving "CSV" writes it. A
 * file with NUL bytes is binary (a spreadsheet, an archive), never a CSV.
 */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** dd/mm/yyyy (a real calendar date) as YYYY-MM-DD; anything else null. */
export function parseListDate(value: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (!match) return null;
  const [, day, month, year] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const iso = `${year}-${month}-${day}`;
  return date.toISOString().slice(0, 10) === iso ? iso : null;
}

const isBlank = (fields: readonly string[]) => fields.every((value) => value.trim() === '');
const optional = (value: string | undefined) => {
  const trimmed = (value ?? '').trim().replace(/\s+/g, ' ');
  return trimmed === '' ? null : trimmed;
};

/** Reads a ConList.csv file; a file that is not one is refused with what is wrong, by line. */
export function parseConList(bytes: Buffer): ConListResult {
  const text = decodeText(bytes);
  if (text === null) return { ok: false, errors: [SANCTIONS_TEXTS.notText] };
  const csv = parseCsv(text);
  if (!csv.ok) return { ok: false, errors: [csv.error] };
  const records = csv.records.filter((record) => !isBlank(record.fields));
  const [banner, header, ...rows] = records;

  const [label = '', date = ''] = banner?.fields.map((value) => value.trim()) ?? [];
  const updatedOn = parseListDate(date);
  if (!/^last updated:?$/i.test(label) || !updatedOn || !header) {
    return { ok: false, errors: [SANCTIONS_TEXTS.notConList] };
  }

  // The header repeats "Last Updated" as a column (the row's own date): the first of each name counts.
  const columns = new Map<string, number>();
  header.fields.forEach((name, index) => {
    const key = name.trim().toLowerCase();
    if (!columns.has(key)) columns.set(key, index);
  });
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.has(name.toLowerCase()));
  if (missing.length > 0) {
    return { ok: false, errors: [`${SANCTIONS_TEXTS.missingColumns} ${missing.join(', ')}.`] };
  }
  if (rows.length === 0) return { ok: false, errors: [SANCTIONS_TEXTS.noRows] };

  const errors: string[] = [];
  const entries: ConListEntry[] = [];
  for (const { line, fields } of rows) {
    const cell = (name: string) => {
      const index = columns.get(name.toLowerCase());
      return index === undefined ? undefined : fields[index];
    };
    const problem = (text: string) => errors.push(`Line ${line}: ${text}`);
    if (fields.length > header.fields.length) {
      problem(SANCTIONS_TEXTS.tooManyFields);
      continue;
    }
    const groupType = GROUP_TYPES[(cell('Group Type') ?? '').trim().toLowerCase()];
    const groupId = optional(cell('Group ID'));
    const surname = optional(cell('Name 6')) ?? '';
    const givenNames = GIVEN_NAME_COLUMNS.map((name) => optional(cell(name)))
      .filter((name): name is string => name !== null)
      .join(' ');
    if (!groupType) problem(SANCTIONS_TEXTS.badGroupType);
    else if (!groupId) problem(SANCTIONS_TEXTS.noGroupId);
    else if (surname === '' && givenNames === '') problem(SANCTIONS_TEXTS.noName);
    else
      entries.push({
        line,
        groupId,
        groupType,
        surname,
        givenNames,
        title: optional(cell('Title')),
        dob: optional(cell('DOB')),
        townOfBirth: optional(cell('Town of Birth')),
        countryOfBirth: optional(cell('Country of Birth')),
        nationality: optional(cell('Nationality')),
        aliasType: optional(cell('Alias Type')),
        regime: optional(cell('Regime')),
        listedOn: optional(cell('Listed On')),
      });
    if (errors.length >= MAX_REPORTED_ERRORS) break;
  }
  if (errors.length > 0) return { ok: false, errors };

  const typeOfGroup = new Map<string, SanctionsGroupType>();
  for (const entry of entries) typeOfGroup.set(entry.groupId, entry.groupType);
  const groupsOf = (type: SanctionsGroupType) =>
    [...typeOfGroup.values()].filter((value) => value === type).length;
  return {
    ok: true,
    list: {
      updatedOn,
      entries,
      counts: {
        rows: entries.length,
        designations: typeOfGroup.size,
        individuals: groupsOf('Individual'),
        entities: groupsOf('Entity'),
        ships: groupsOf('Ship'),
      },
    },
  };
}
