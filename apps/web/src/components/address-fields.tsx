import { SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CountrySelect } from './country-select';

type AddressField = 'country' | 'phone' | 'address' | 'city' | 'zip';

type AddressFieldsProps = {
  /** The form's `register`: these fields are named as PUT /api/v1/users names them. */
  register: (name: AddressField) => UseFormRegisterReturn;
  errors: Partial<Record<AddressField, { message?: string }>>;
};

/**
 * Where an Individual lives and how to reach them, as the wizard's address step asks and the Account
 * page's change of address asks again: the country (a permitted jurisdiction), phone, address, city
 * and post code.
 */
export function AddressFields({ register, errors }: AddressFieldsProps) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <CountrySelect
          label="Country"
          description="Where you live"
          isPermittedOnly
          error={errors.country?.message}
          {...register('country')}
        />
        <TextInput
          label="Phone Number"
          type="tel"
          autoComplete="tel"
          error={errors.phone?.message}
          {...register('phone')}
        />
      </SimpleGrid>
      <TextInput
        label="Address"
        autoComplete="street-address"
        error={errors.address?.message}
        {...register('address')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="City"
          autoComplete="address-level2"
          error={errors.city?.message}
          {...register('city')}
        />
        <TextInput
          label="Post Code"
          autoComplete="postal-code"
          error={errors.zip?.message}
          {...register('zip')}
        />
      </SimpleGrid>
    </>
  );
}
