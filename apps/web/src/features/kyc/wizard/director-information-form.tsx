import { DirectorBodySchema, KYC_TEXTS, type Director, type DirectorBody } from '@florin/contracts';
import { DEFAULT_COUNTRY_CODE } from '@florin/domain';
import { Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm, useWatch, type FieldError, type FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import { toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors, showInvalidForm } from '../../../lib/forms';
import { showErrorToast } from '../../../lib/toasts';
import { useAddDirector } from '../api/create-director';
import { useChangeDirector } from '../api/update-director';
import { BirthdateInput } from '../components/birthdate-input';
import { CountrySelect } from '../../../components/country-select';
import { StepNav } from '../components/step-nav';

export type DirectorForm = {
  owner: boolean;
  director: boolean;
  firstName: string;
  lastName: string;
  shareHolding: string;
  address: string;
  city: string;
  zip: string;
  country: string;
  phone: string;
  birthdate: string;
};

const FIELDS = [
  'firstName',
  'lastName',
  'shareHolding',
  'address',
  'city',
  'zip',
  'country',
  'phone',
  'birthdate',
] as const;

/** Spec 000 section 9: status 1 owner only, 2 director only, 3 both. */
function statusOf(values: Pick<DirectorForm, 'owner' | 'director'>): 1 | 2 | 3 | undefined {
  if (values.owner && values.director) return 3;
  if (values.owner) return 1;
  if (values.director) return 2;
  return undefined;
}

export function toDirectorBody({ owner, director, ...fields }: DirectorForm): Partial<DirectorBody> {
  return { ...fields, status: statusOf({ owner, director }) };
}

/** Checks the form as the body it becomes; a missing Owner/Director choice is reported on `status`. */
const resolver = contractResolver<DirectorForm>(
  z.preprocess((values) => toDirectorBody(values as DirectorForm), DirectorBodySchema),
);

export function emptyDirectorForm(): DirectorForm {
  return {
    owner: false,
    director: false,
    firstName: '',
    lastName: '',
    shareHolding: '',
    address: '',
    city: '',
    zip: '',
    country: DEFAULT_COUNTRY_CODE,
    phone: '',
    birthdate: '',
  };
}

export function directorFormOf(director: Director): DirectorForm {
  return {
    owner: director.owner === 1,
    director: director.director === 1,
    firstName: director.firstName,
    lastName: director.lastName,
    shareHolding: director.shareHolding.replace(/\.00$/, ''),
    address: director.address,
    city: director.city,
    zip: director.zip,
    country: director.country,
    phone: director.phone,
    birthdate: director.birthdate,
  };
}

type DirectorInformationFormProps = {
  director: Director | null;
  onSaved: (director: Director, wasCreated: boolean) => void;
};

/** The modal's Information tab: a director's or owner's details (spec 000 section 5). */
export function DirectorInformationForm({ director, onSaved }: DirectorInformationFormProps) {
  const add = useAddDirector();
  const change = useChangeDirector();
  const form = useForm<DirectorForm>({
    resolver,
    defaultValues: director ? directorFormOf(director) : emptyDirectorForm(),
  });
  const { errors } = form.formState;
  const [isOwner, isDirector] = useWatch({ control: form.control, name: ['owner', 'director'] });
  // The refusal stays only until one of the two boxes is ticked.
  const isSelectionMissing =
    (errors as Record<string, { message?: string } | undefined>).status !== undefined &&
    !isOwner &&
    !isDirector;

  const handleSubmit = form.handleSubmit(
    (values) => {
      // The resolver hands over the parsed body (status computed, texts trimmed).
      const body = values as unknown as DirectorBody;
      const options = {
        onError: (error: unknown) => markFieldErrors(toAppError(error), form.setError, FIELDS),
      };
      if (director) {
        change.mutate(
          { id: director.id, body },
          { ...options, onSuccess: ({ data }) => onSaved(data, false) },
        );
      } else {
        add.mutate(body, { ...options, onSuccess: ({ data }) => onSaved(data, true) });
      }
    },
    (invalid) => {
      const { status, ...others } = invalid as FieldErrors<DirectorForm> & { status?: FieldError };
      if (status) {
        showErrorToast({ title: KYC_TEXTS.missingSelectionTitle, message: KYC_TEXTS.missingSelection });
      }
      if (Object.keys(others).length > 0) showInvalidForm(KYC_TEXTS.directorFailedTitle, others);
    },
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="xl">
            <Checkbox label="Owner" {...form.register('owner')} />
            <Checkbox label="Director" {...form.register('director')} />
          </Group>
          {isSelectionMissing && (
            <Text size="xs" c="red.8">
              {KYC_TEXTS.missingSelection}
            </Text>
          )}
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="First Name" error={errors.firstName?.message} {...form.register('firstName')} />
          <TextInput label="Last Name" error={errors.lastName?.message} {...form.register('lastName')} />
          <TextInput
            label="Shareholding %"
            inputMode="decimal"
            error={errors.shareHolding?.message}
            {...form.register('shareHolding')}
          />
          <TextInput
            label="Phone Number"
            type="tel"
            error={errors.phone?.message}
            {...form.register('phone')}
          />
        </SimpleGrid>
        <TextInput label="Address" error={errors.address?.message} {...form.register('address')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="City" error={errors.city?.message} {...form.register('city')} />
          <TextInput label="Post Code" error={errors.zip?.message} {...form.register('zip')} />
          <CountrySelect label="Country" error={errors.country?.message} {...form.register('country')} />
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
        </SimpleGrid>
        <StepNav
          isNextSubmit
          isNextLoading={add.isPending || change.isPending}
          nextLabel={director ? 'Save' : 'Add'}
        />
      </Stack>
    </form>
  );
}
