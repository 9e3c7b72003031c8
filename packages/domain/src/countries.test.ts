import { describe, expect, it } from 'vitest';
import {
  countryName,
  DEFAULT_COUNTRY_CODE,
  isPermittedCountry,
  PERMITTED_COUNTRY_CODES,
  PERMITTED_JURISDICTIONS,
} from './countries.js';

/** Spec 002 §9, "Permitted jurisdictions (Locations page)", word for word and in its order. */
const SPEC_PRIMARY = ['United Kingdom'];
const SPEC_EEA = [
  'Austria',
  'Belgium',
  'Bulgaria',
  'Croatia',
  'Cyprus',
  'Czechia',
  'Denmark',
  'Estonia',
  'Finland',
  'Germany',
  'France',
  'Greece',
  'Hungary',
  'Ireland',
  'Italy',
  'Latvia',
  'Lithuania',
  'Luxembourg',
  'Malta',
  'Netherlands',
  'Poland',
  'Portugal',
  'Romania',
  'Slovakia',
  'Slovenia',
  'Spain',
  'Sweden',
];
const SPEC_NON_EU = [
  'Guernsey',
  'Isle of Man',
  'Jersey',
  'Norway',
  'Switzerland',
  'Turkey',
  'United Arab Emirates',
];

describe('the permitted jurisdictions', () => {
  it('are exactly the Locations page list of spec 002 §9, in its groups and order', () => {
    expect(PERMITTED_JURISDICTIONS.primary.map(countryName)).toEqual(SPEC_PRIMARY);
    expect(PERMITTED_JURISDICTIONS.eea.map(countryName)).toEqual(SPEC_EEA);
    expect(PERMITTED_JURISDICTIONS.nonEu.map(countryName)).toEqual(SPEC_NON_EU);
  });

  it('are the list KYC enforces: the groups one after another, the United Kingdom first and default', () => {
    expect(PERMITTED_COUNTRY_CODES.map(countryName)).toEqual([...SPEC_PRIMARY, ...SPEC_EEA, ...SPEC_NON_EU]);
    expect(new Set(PERMITTED_COUNTRY_CODES).size).toBe(PERMITTED_COUNTRY_CODES.length);
    expect(DEFAULT_COUNTRY_CODE).toBe('GB');
    for (const code of PERMITTED_COUNTRY_CODES) expect(isPermittedCountry(code)).toBe(true);
    // Neighbours of the list that are not on it.
    for (const code of ['US', 'IS', 'LI', 'GI', 'RU']) expect(isPermittedCountry(code)).toBe(false);
  });
});
