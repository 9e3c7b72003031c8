import { COUNTRIES, countryName, PERMITTED_COUNTRY_CODES } from '@florin/domain';
import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { forwardRef } from 'react';

const PERMITTED_OPTIONS = PERMITTED_COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) }));
const ALL_OPTIONS = [
  { value: '', label: 'Please choose' },
  ...COUNTRIES.map((country) => ({ value: country.code, label: country.name })),
];

type CountrySelectProps = Omit<NativeSelectProps, 'data'> & {
  /** Residence and company country: only the permitted jurisdictions, United Kingdom first (DECISIONS.md). */
  isPermittedOnly?: boolean;
};

/** A native select: long lists scroll and search best with the phone's own picker. */
export const CountrySelect = forwardRef<HTMLSelectElement, CountrySelectProps>(function CountrySelect(
  { isPermittedOnly = false, ...props },
  ref,
) {
  return <NativeSelect ref={ref} data={isPermittedOnly ? PERMITTED_OPTIONS : ALL_OPTIONS} {...props} />;
});
