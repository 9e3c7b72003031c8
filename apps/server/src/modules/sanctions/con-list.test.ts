import { describe, expect, it } from 'vitest';
import { SANCTIONS_TEXTS } from '@florin/contracts';
import { decodeText, parseConList, parseCsv, parseListDate } from './con-list.js';
import { conListCsv, entity, individual } from './lists.test-kit.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted commas, doubled quotes and line breaks inside quotes, with each record’s first line', () => {
    const result = parseCsv('a,"b, c","say ""hi"""\r\n"two\r\nlines",x,\n\rlast');
    expect(result).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ['a', 'b, c', 'say "hi"'] },
        { line: 2, fields: ['two\r\nlines', 'x', ''] },
        { line: 4, fields: [''] },
        { line: 5, fields: ['last'] },
      ],
    });
  });

  it('refuses a quote that is never closed, naming the line it opens on', () => {
    expect(parseCsv('a,b\nc,"d\ne')).toEqual({
      ok: false,
      error: `Line 2: ${SANCTIONS_TEXTS.unclosedQuote}`,
    });
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 byte order mark and reads Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(Buffer.from('\uFEFFLast Updated', 'utf8'))).toBe('Last Updated');
    expect(decodeText(Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]))).toBe('Müller');
  });

  it('takes a file with NUL bytes for binary', () => {
    expect(decodeText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBeNull();
  });
});

describe('parseListDate', () => {
  it('reads real dd/mm/yyyy dates only', () => {
    expect(parseListDate('03/06/2026')).toBe('2026-06-03');
    expect(parseListDate('31/02/2026')).toBeNull();
    expect(parseListDate('2026-06-03')).toBeNull();
  });
});

describe('parseConList', () => {
  it('reads a consolidated list with a BOM and CRLF, counting rows and designations by type', () => {
    const text = conListCsv(
      [
        individual('14001', 'EXAMPLEVICH', ['Ivan', 'Petrovich'], { DOB: '28/06/1960', Title: 'Mr' }),
        individual('14001', 'EXAMPLEVIC', ['Ivan'], { 'Alias Type': 'AKA' }),
        entity('14002', 'NORTHERN STAR SHIPPING LTD', {
          'Other Information': 'Trades as "North Star", Moscow,\nRussia',
        }),
        { 'Name 6': 'SEA BREEZE', 'Group Type': 'Ship', 'Group ID': '14003' },
      ],
      { bom: true, updated: '28/02/2026' },
    );
    const result = parseConList(bytes(text));
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.list.updatedOn).toBe('2026-02-28');
    expect(result.list.counts).toEqual({ rows: 4, designations: 3, individuals: 1, entities: 1, ships: 1 });
    expect(result.list.entries[0]).toMatchObject({
      line: 3,
      groupId: '14001',
      groupType: 'Individual',
      surname: 'EXAMPLEVICH',
      givenNames: 'Ivan Petrovich',
      title: 'Mr',
      dob: '28/06/1960',
      regime: 'Russia',
      listedOn: '15/03/2022',
    });
    // The quoted line break is inside the entity's row: the ship's row starts two lines later.
    expect(result.list.entries.map((entry) => entry.line)).toEqual([3, 4, 5, 7]);
  });

  it('takes "Last Updated:" with trailing empty cells, and columns in another order', () => {
    const text = [
      'Last Updated:,03/06/2026,,,',
      'Group ID,Group Type,Name 1,Name 6,DOB',
      '77,individual,Olga,Examplova,00/00/1970',
    ].join('\n');
    const result = parseConList(bytes(text));
    expect(result.ok && result.list.entries[0]).toMatchObject({
      groupId: '77',
      groupType: 'Individual',
      surname: 'Examplova',
      givenNames: 'Olga',
      dob: '00/00/1970',
    });
  });

  it('refuses a CSV file that is not the consolidated list', () => {
    expect(parseConList(bytes('first_name,last_name\nAda,Lovelace\n'))).toEqual({
      ok: false,
      errors: [SANCTIONS_TEXTS.notConList],
    });
    expect(parseConList(bytes('Last Updated,03/06/2026\nName,Type\nAda,Individual\n'))).toEqual({
      ok: false,
      errors: [`${SANCTIONS_TEXTS.missingColumns} Name 6, Name 1, Group Type, Group ID.`],
    });
    expect(parseConList(bytes(conListCsv([])))).toEqual({ ok: false, errors: [SANCTIONS_TEXTS.noRows] });
  });

  it('refuses binary files and files that are not text', () => {
    expect(parseConList(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]))).toEqual({
      ok: false,
      errors: [SANCTIONS_TEXTS.notText],
    });
  });

  it('names the lines of rows it cannot read, and takes nothing from such a file', () => {
    const text = conListCsv([
      individual('1', 'GOOD', ['Row']),
      { ...individual('2', 'BAD', ['Type']), 'Group Type': 'Person' as 'Individual' },
      { 'Group Type': 'Entity', 'Group ID': '3' },
      individual('', 'NO', ['Group']),
    ]);
    expect(parseConList(bytes(text))).toEqual({
      ok: false,
      errors: [
        `Line 4: ${SANCTIONS_TEXTS.badGroupType}`,
        `Line 5: ${SANCTIONS_TEXTS.noName}`,
        `Line 6: ${SANCTIONS_TEXTS.noGroupId}`,
      ],
    });
  });

  it('refuses a row with more fields than the header (a comma without its quotes)', () => {
    const text =
      'Last Updated,03/06/2026\nName 6,Name 1,Group Type,Group ID\nSMITH,John,Individual,1,extra\n';
    expect(parseConList(bytes(text))).toEqual({
      ok: false,
      errors: [`Line 3: ${SANCTIONS_TEXTS.tooManyFields}`],
    });
  });
});
