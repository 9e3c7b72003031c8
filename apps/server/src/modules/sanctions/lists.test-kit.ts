/**
 * Consolidated list files for the tests, in OFSI's ConList.csv layout (the
 * columns of the file published since 2022): a Last Updated line, the header,
 * then one row per name or alias.
 */

export const CON_LIST_HEADER = [
  'Name 6',
  'Name 1',
  'Name 2',
  'Name 3',
  'Name 4',
  'Name 5',
  'Title',
  'Name Non-Latin Script',
  'Non-Latin Script Type',
  'Non-Latin Script Language',
  'DOB',
  'Town of Birth',
  'Country of Birth',
  'Nationality',
  'Passport Number',
  'Passport Details',
  'National Identification Number',
  'National Identification Details',
  'Position',
  'Address 1',
  'Address 2',
  'Address 3',
  'Address 4',
  'Address 5',
  'Address 6',
  'Post/Zip Code',
  'Country',
  'Other Information',
  'Group Type',
  'Alias Type',
  'Alias Quality',
  'Regime',
  'Listed On',
  'UK Sanctions List Date Designated',
  'Last Updated',
  'Group ID',
] as const;

type Column = (typeof CON_LIST_HEADER)[number];
/** Every column but the two each helper sets itself. */
type Extra = Partial<Record<Exclude<Column, 'Group Type' | 'Group ID'>, string>>;

export type ListedRow = Partial<Record<Column, string>> & {
  'Group Type': 'Individual' | 'Entity' | 'Ship';
  'Group ID': string;
};

/** RFC 4180: quoted when it holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function conListCsv(rows: readonly ListedRow[], options: { updated?: string; bom?: boolean } = {}) {
  const lines = [
    `Last Updated,${options.updated ?? '03/06/2026'}`,
    CON_LIST_HEADER.join(','),
    ...rows.map((row) => CON_LIST_HEADER.map((column) => csvField(row[column] ?? '')).join(',')),
  ];
  return `${options.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

/** A listed individual's row: surname (Name 6), given names (Name 1, Name 2, …), and the rest. */
export function individual(
  groupId: string,
  surname: string,
  givenNames: readonly string[],
  extra: Extra = {},
): ListedRow {
  const names: Partial<Record<Column, string>> = { 'Name 6': surname };
  givenNames.forEach((name, index) => {
    names[`Name ${index + 1}` as Column] = name;
  });
  return {
    ...names,
    'Group Type': 'Individual',
    'Alias Type': 'Primary name',
    Regime: 'Russia',
    'Listed On': '15/03/2022',
    ...extra,
    'Group ID': groupId,
  };
}

export function entity(groupId: string, name: string, extra: Extra = {}): ListedRow {
  return {
    'Name 6': name,
    'Group Type': 'Entity',
    'Alias Type': 'Primary name',
    Regime: 'Russia',
    'Listed On': '24/02/2022',
    ...extra,
    'Group ID': groupId,
  };
}
