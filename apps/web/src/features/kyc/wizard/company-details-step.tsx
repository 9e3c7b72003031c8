import { CompanyBodySchema, KYC_TEXTS, type CompanyBody } from '@florin/contracts';
import { DEFAULT_COUNTRY_CODE } from '@florin/domain';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors, showInvalidForm } from '../../../lib/forms';
import type { User } from '@florin/contracts';
import { useSaveCompany } from '../api/save-company';
import { CountrySelect } from '../../../components/country-select';
import { StepNav } from '../components/step-nav';

type CompanyForm = Record<keyof CompanyBody, string>;

const FIELDS = ['country', 'name', 'company_number', 'address', 'city', 'zip'] as const;
const resolver = contractResolver<CompanyForm>(CompanyBodySchema);

type CompanyDetailsStepProps = { user: User; onBack: () => void; onDone: () => void };

/** Corporate step 3 (spec 000 section 2); unchanged details skip the save (section 5). */
export function CompanyDetailsStep({ user, onBack, onDone }: CompanyDetailsStepProps) {
  const save = useSaveCompany();
  const { company } = user;
  const form = useForm<CompanyForm>({
    resolver,
    defaultValues: {
      country: company?.country ?? DEFAULT_COUNTRY_CODE,
      name: company?.name ?? '',
      company_number: company?.company_number ?? '',
      address: company?.address ?? '',
      city: company?.city ?? '',
      zip: company?.zip ?? '',
    },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(
    (values) => {
      // The resolver hands over the parsed values (number upper-cased, spaces gone), as the server stores them.
      if (company && FIELDS.every((field) => values[field] === company[field])) {
        onDone();
        return;
      }
      save.mutate(values as CompanyBody, {
        onSuccess: onDone,
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, FIELDS);
          if (appError.code === 'COMPANY_NUMBER_TAKEN') {
            form.setError('company_number', { type: 'server', message: KYC_TEXTS.companyNumberTaken });
          }
        },
      });
    },
    (invalid) => showInvalidForm(KYC_TEXTS.informationMissingTitle, invalid),
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The company as registered (at Companies House for a UK company).
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <CountrySelect
            label="Country"
            description="Where the company is registered"
            isPermittedOnly
            error={errors.country?.message}
            {...form.register('country')}
          />
          <TextInput
            label="Company Name"
            autoComplete="organization"
            error={errors.name?.message}
            {...form.register('name')}
          />
          <TextInput
            label="Company Number"
            description="For example 01234567 or SC123456"
            error={errors.company_number?.message}
            {...form.register('company_number')}
          />
        </SimpleGrid>
        <TextInput
          label="Registered Address"
          autoComplete="street-address"
          error={errors.address?.message}
          {...form.register('address')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="City"
            autoComplete="address-level2"
            error={errors.city?.message}
            {...form.register('city')}
          />
          <TextInput
            label="Post Code"
            autoComplete="postal-code"
            error={errors.zip?.message}
            {...form.register('zip')}
          />
        </SimpleGrid>
        <StepNav onBack={onBack} isNextSubmit isNextLoading={save.isPending} />
      </Stack>
    </form>
  );
}
