import { KYC_TEXTS, UserDetailsBodySchema, type UserDetailsBody } from '@florin/contracts';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors, showInvalidForm } from '../../../lib/forms';
import { useSaveUserDetails, userDetailsOf } from '../../../lib/user-details';
import type { User } from '@florin/contracts';
import { BirthdateInput } from '../components/birthdate-input';
import { AddressFields } from '../../../components/address-fields';
import { CountrySelect } from '../../../components/country-select';
import { StepNav } from '../components/step-nav';

type AddressForm = Record<keyof UserDetailsBody, string>;

const FIELDS = [
  'country',
  'address',
  'city',
  'zip',
  'phone',
  'birthdate',
  'nationality',
  'tax_residence',
  'tax_id',
] as const;

const resolver = contractResolver<AddressForm>(UserDetailsBodySchema);

type AddressStepProps = { user: User; onBack: () => void; onDone: () => void };

/**
 * Individual step 3 (spec 000 section 2), plus nationality, tax residence and the National
 * Insurance number or foreign tax id that HMRC's cryptoasset reporting asks for.
 */
export function AddressStep({ user, onBack, onDone }: AddressStepProps) {
  const save = useSaveUserDetails();
  const initial = userDetailsOf(user);
  const form = useForm<AddressForm>({ resolver, defaultValues: initial });
  const { errors } = form.formState;
  const isUkTaxResident = useWatch({ control: form.control, name: 'tax_residence' }) === 'GB';

  const handleSubmit = form.handleSubmit(
    (values) => {
      // Saved before and unchanged: nothing to send (a live customer's address change goes back to review).
      const isUnchanged = FIELDS.every((field) => values[field] === initial[field]);
      if (user.is_kyc_submitted === 1 && isUnchanged) {
        onDone();
        return;
      }
      save.mutate(values as UserDetailsBody, {
        onSuccess: onDone,
        onError: (error) => markFieldErrors(toAppError(error), form.setError, FIELDS),
      });
    },
    (invalid) => showInvalidForm(KYC_TEXTS.informationMissingTitle, invalid),
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <Text c="dimmed" size="sm">
          Tell us where you live and how to reach you. We also need your nationality and tax details, as UK
          rules require for crypto-asset accounts.
        </Text>
        <AddressFields register={form.register} errors={errors} />
        <Controller
          control={form.control}
          name="birthdate"
          render={({ field }) => (
            <BirthdateInput
              value={field.value}
              onChange={field.onChange}
              onFutureDate={(message) => form.setError('birthdate', { type: 'validate', message })}
              error={errors.birthdate?.message}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <CountrySelect
            label="Nationality"
            error={errors.nationality?.message}
            {...form.register('nationality')}
          />
          <CountrySelect
            label="Tax Residence"
            description="The country where you pay tax"
            error={errors.tax_residence?.message}
            {...form.register('tax_residence')}
          />
        </SimpleGrid>
        <TextInput
          label={isUkTaxResident ? 'National Insurance Number' : 'Tax ID'}
          description={isUkTaxResident ? 'For example AB123456C' : 'Your tax identification number'}
          autoComplete="off"
          error={errors.tax_id?.message}
          {...form.register('tax_id')}
        />
        <StepNav onBack={onBack} isNextSubmit isNextLoading={save.isPending} />
      </Stack>
    </form>
  );
}
