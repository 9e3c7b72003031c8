import {
  ACCOUNT_TEXTS,
  KYC_TEXTS,
  UserDetailsBodySchema,
  type User,
  type UserDetailsBody,
} from '@florin/contracts';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { toAppError } from '../../lib/errors';
import { contractResolver, markFieldErrors, showInvalidForm } from '../../lib/forms';
import { showSuccessToast } from '../../lib/toasts';
import { useSaveUserDetails, userDetailsOf } from '../../lib/user-details';
import { AddressFields } from '../../components/address-fields';

const FIELDS = ['country', 'address', 'city', 'zip', 'phone'] as const;
type DetailsForm = Record<(typeof FIELDS)[number], string>;

const addressOf = (values: Pick<DetailsForm, 'country' | 'address' | 'city' | 'zip'>) =>
  [values.country, values.address.trim(), values.city.trim(), values.zip.trim()].join('\n');

type ChangeDetailsModalProps = { user: User; onClose: () => void };

/**
 * A live Individual customer's new address or phone (DECISIONS.md), through the wizard's own call
 * (`PUT /api/v1/users`) with the rest of their details as stored. A new address supersedes the proof
 * of address, so the shell then asks for a new one, as the warning says before they save.
 */
export function ChangeDetailsModal({ user, onClose }: ChangeDetailsModalProps) {
  const save = useSaveUserDetails();
  // What this form does not show (date of birth, nationality, tax) is sent as stored.
  const stored = userDetailsOf(user);
  const form = useForm<DetailsForm>({
    // The whole body is checked, with the fields this form does not show as stored.
    resolver: contractResolver<DetailsForm>(
      z.preprocess((values) => ({ ...stored, ...(values as object) }), UserDetailsBodySchema),
    ),
    defaultValues: {
      country: stored.country,
      address: stored.address,
      city: stored.city,
      zip: stored.zip,
      phone: stored.phone,
    },
  });
  const { errors } = form.formState;
  const values = useWatch({ control: form.control }) as DetailsForm;
  const isNewAddress = addressOf(values) !== addressOf(stored);

  const close = () => {
    if (!save.isPending) onClose();
  };

  const handleSubmit = form.handleSubmit(
    (body) => {
      save.mutate(body as unknown as UserDetailsBody, {
        onSuccess: () => {
          showSuccessToast({ title: 'Success!', message: ACCOUNT_TEXTS.detailsSaved });
          onClose();
        },
        onError: (error) => markFieldErrors(toAppError(error), form.setError, FIELDS),
      });
    },
    (invalid) => showInvalidForm(KYC_TEXTS.informationMissingTitle, invalid),
  );

  return (
    <Modal opened onClose={close} title={ACCOUNT_TEXTS.changeDetailsTitle} centered size="lg">
      <form
        onSubmit={(event) => void handleSubmit(event)}
        noValidate
        aria-label={ACCOUNT_TEXTS.changeDetailsTitle}
      >
        <Stack gap="md">
          <AddressFields register={form.register} errors={errors} />
          {isNewAddress && (
            <Alert color="orange" variant="light" role="status">
              {ACCOUNT_TEXTS.addressChangeWarning}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {ACCOUNT_TEXTS.saveDetails}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
