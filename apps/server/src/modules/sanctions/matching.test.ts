import { describe, expect, it } from 'vitest';
import {
  buildIndex,
  canBeSameDate,
  companyTokens,
  normaliseName,
  parsePartialDate,
  screenCompany,
  screenPerson,
  type IndexEntry,
} from './matching.js';

const person = (
  groupId: string,
  surname: string,
  givenNames: string,
  dob: string | null = null,
): IndexEntry => ({
  groupId,
  groupType: 'Individual',
  surname,
  givenNames,
  dob,
  regime: 'Russia',
});

const company = (groupId: string, name: string): IndexEntry => ({
  groupId,
  groupType: 'Entity',
  surname: name,
  givenNames: '',
  dob: null,
  regime: 'Russia',
});

const index = buildIndex([
  person('1', 'EXAMPLEVICH', 'Ivan', '28/06/1960'),
  person('1', 'EXAMPLEVIC', 'Ivan', '00/00/1961'),
  person('2', 'AL-ZAWAHIRI', 'Aiman Muhammed Rabi', '19/06/1951'),
  person('3', 'NOWAK', 'Józef'),
  person('4', 'HAMZA', ''),
  person('5', "O'SULLIVAN", 'Seán', '00/00/1975'),
  company('6', 'ALFA SHIPPING LTD'),
  company('7', 'NORTHERN STAR'),
  { ...company('8', 'SEA BREEZE'), groupType: 'Ship' },
]);

const groupsFor = (name: string, birthdate: string | null = null) =>
  screenPerson(index, { name, birthdate }).map((match) => match.designation.groupId);
const companyGroups = (name: string) => screenCompany(index, name).map((match) => match.designation.groupId);

describe('normaliseName', () => {
  it('ignores case, accents, punctuation and extra spaces', () => {
    expect(normaliseName('  José   MARÍA  ')).toEqual(['jose', 'maria']);
    expect(normaliseName("O'Brien-Smith, Jr.")).toEqual(['obrien', 'smith', 'jr']);
    expect(normaliseName('Straße Łukasz Ørsted Æsir')).toEqual(['strasse', 'lukasz', 'orsted', 'aesir']);
    expect(normaliseName(' -- ')).toEqual([]);
  });

  it('leaves legal forms out of company names, unless nothing else is left', () => {
    expect(companyTokens('The Alfa Shipping Company Limited')).toEqual(['alfa', 'shipping']);
    expect(companyTokens('OOO "Northern Star"')).toEqual(['northern', 'star']);
    expect(companyTokens('The Company Ltd')).toEqual(['the', 'company', 'ltd']);
  });
});

describe('dates of birth', () => {
  it('reads the list’s dates with unknown parts as 00, and bare years', () => {
    expect(parsePartialDate('28/06/1960')).toEqual({ day: 28, month: 6, year: 1960 });
    expect(parsePartialDate('00/00/1961')).toEqual({ day: null, month: null, year: 1961 });
    expect(parsePartialDate('1975')).toEqual({ day: null, month: null, year: 1975 });
    expect(parsePartialDate('00/00/0000')).toBeNull();
    expect(parsePartialDate('circa 1960')).toBeNull();
  });

  it('compares only the parts the list knows', () => {
    expect(canBeSameDate('1961-11-02', { day: null, month: null, year: 1961 })).toBe(true);
    expect(canBeSameDate('1962-11-02', { day: null, month: null, year: 1961 })).toBe(false);
    expect(canBeSameDate('1960-06-27', { day: 28, month: 6, year: 1960 })).toBe(false);
  });
});

describe('screening a person', () => {
  it('matches a listed name or alias whatever the case, accents, punctuation and word order', () => {
    expect(groupsFor('Ivan Examplevich')).toEqual(['1']);
    expect(groupsFor('EXAMPLEVICH  ivan')).toEqual(['1']);
    expect(groupsFor('Ivan Examplevic')).toEqual(['1']);
    expect(groupsFor('Jozef Nowak')).toEqual(['3']);
    expect(groupsFor('Sean OSullivan')).toEqual(['5']);
  });

  it('matches a person with more names than the listing, all the listed ones among them', () => {
    expect(groupsFor('Ivan Petrovich Examplevich')).toEqual(['1']);
  });

  it('matches a person who gave fewer names than the listing, its surname among them', () => {
    expect(groupsFor('Aiman al-Zawahiri')).toEqual(['2']);
    expect(groupsFor('Aiman Muhammed Rabi Al Zawahiri')).toEqual(['2']);
  });

  it('uses the date of birth to exclude, only when both are known and none of the listed dates fits', () => {
    expect(groupsFor('Ivan Examplevich', '1960-06-28')).toEqual(['1']);
    // The alias's row lists another year: one of the designation's dates fitting is enough.
    expect(groupsFor('Ivan Examplevich', '1961-03-01')).toEqual(['1']);
    expect(groupsFor('Ivan Examplevich', '1985-04-12')).toEqual([]);
    expect(groupsFor('Jozef Nowak', '1985-04-12')).toEqual(['3']);
    expect(groupsFor('Sean OSullivan', '1975-05-05')).toEqual(['5']);
    expect(groupsFor('Sean OSullivan', '1976-05-05')).toEqual([]);
  });

  describe('false positives it does not raise', () => {
    it('a name sharing only some words with a listing', () => {
      expect(groupsFor('Ivana Examplevich')).toEqual([]);
      expect(groupsFor('Ivan Smith')).toEqual([]);
      expect(groupsFor('Examplevich')).toEqual([]);
    });

    it('the listing’s given names without its surname', () => {
      expect(groupsFor('Aiman Rabi')).toEqual([]);
    });

    it('a single listed word (a nickname) found in a longer name', () => {
      expect(groupsFor('Hamza Khan')).toEqual([]);
    });

    it('a word inside another word', () => {
      expect(groupsFor('Ivanka Examplevicheva')).toEqual([]);
    });

    it('a person named like a listed company or ship', () => {
      expect(groupsFor('Northern Star')).toEqual([]);
      expect(groupsFor('Sea Breeze')).toEqual([]);
    });
  });
});

describe('screening a company', () => {
  it('matches a listed entity whatever its legal form, case and punctuation', () => {
    expect(companyGroups('Alfa Shipping Limited')).toEqual(['6']);
    expect(companyGroups('The ALFA-SHIPPING Company')).toEqual(['6']);
    expect(companyGroups('Northern Star Trading LLP')).toEqual(['7']);
  });

  it('raises no match for a company sharing only a word, for listed people or for ships', () => {
    expect(companyGroups('Alfa Logistics Ltd')).toEqual([]);
    expect(companyGroups('Northern Lights Ltd')).toEqual([]);
    expect(companyGroups('Ivan Examplevich Ltd')).toEqual([]);
    expect(companyGroups('Sea Breeze Ltd')).toEqual([]);
  });
});
