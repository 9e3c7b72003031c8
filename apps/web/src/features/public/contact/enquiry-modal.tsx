import type { ReactNode } from 'react';
import {
  ENQUIRY_MESSAGE_MAX,
  ENQUIRY_TYPE_LABELS,
  EnquiryBodySchema,
  OPENING_HOURS,
  type AppError,
  type EnquiryInput,
  type EnquiryType,
} from '@florin/contracts';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { describeError, toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { describeRateLimit, noteRateLimit } from '../../../lib/rate-limit-notice';
import { useSendEnquiry } from './api/send-enquiry';

const FIELDS: readonly Path<EnquiryInput>[] = ['first_name', 'last_name', 'email', 'message'];
const EMPTY: EnquiryInput = { first_name: '', last_name: '', email: '', message: '' };
const resolver = contractResolver<EnquiryInput>(EnquiryBodySchema);

/**
 * Darker than Mantine's red and teal, whose light-variant titles read at
 * about 3.5:1 on their tinted backgrounds; these are over 6:1 (WCAG AA).
 */
const ERROR_TEXT = '#a61e1e';
const SUCCESS_TEXT = '#0a5c47';

type Outcome = { kind: 'sent'; message: string } | { kind: 'failed'; text: string } | null;

/** The failure's alert title, and the page's once the dialog is closed. */
const NOT_SENT_TITLE = 'Your enquiry was not sent';

type EnquiryModalProps = {
  opened: boolean;
  type: EnquiryType;
  onClose: () => void;
  /** Where a visitor can write instead when sending fails; unknown while the contacts load. */
  supportEmail?: string;
};

/**
 * What went wrong, and what the visitor can do about it. Too many enquiries also goes
 * above the page, so the moment to try again is still told once the dialog is closed.
 */
function failureText(error: AppError): string {
  if (error.code === 'RATE_LIMITED') {
    const notice = noteRateLimit(error, NOT_SENT_TITLE);
    return describeRateLimit(notice.message, notice.until);
  }
  if (error.status >= 500)
    return 'We could not send your enquiry just now. Please try again in a few minutes.';
  return describeError(error);
}

function WriteToUs({ email }: { email?: string }) {
  if (!email) return <Text size="sm">You can also write to our support team by email.</Text>;
  return (
    <Text size="sm">
      You can also write to us at{' '}
      <Anchor href={`mailto:${email}`} inherit underline="always">
        {email}
      </Anchor>
      .
    </Text>
  );
}

/** A 20 px ring with the mark inside it: the enquiry's outcome, beside its text. */
function RingIcon({ mark }: { mark: ReactNode }) {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" />
      {mark}
    </svg>
  );
}

function CrossIcon() {
  return <RingIcon mark={<path d="M15 9l-6 6M9 9l6 6" strokeLinecap="round" />} />;
}

function CheckIcon() {
  return <RingIcon mark={<path d="M7.5 12.5l3 3 6-6.5" strokeLinecap="round" strokeLinejoin="round" />} />;
}

/**
 * The Product Enquiry dialog (spec 002 §2.13): First Name, Last Name, Email
 * and Message, checked with the server's own contract before anything is
 * sent (§5), then the outcome in the same dialog: the server's message on
 * success; on failure an error, styled as one (the original showed failures
 * as successes, §8), with what to do next. A failed enquiry keeps what was typed.
 */
export function EnquiryModal({ opened, type, onClose, supportEmail }: EnquiryModalProps) {
  const send = useSendEnquiry();
  const form = useForm<EnquiryInput>({ resolver, defaultValues: EMPTY });
  const { errors } = form.formState;
  const [outcome, setOutcome] = useState<Outcome>(null);

  const handleClose = () => {
    // A sent enquiry starts the next one empty; an unsent one is kept for another try.
    if (outcome?.kind === 'sent') form.reset(EMPTY);
    setOutcome(null);
    send.reset();
    onClose();
  };

  const handleSubmit = form.handleSubmit((values) => {
    send.mutate(
      // The resolver hands over the parsed values: trimmed, the e-mail lower-cased, as the server keeps them.
      { type, body: values },
      {
        onSuccess: (answer) => setOutcome({ kind: 'sent', message: answer.message }),
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, FIELDS);
          const isForAField = Object.keys(appError.errors ?? {}).some((field) =>
            FIELDS.includes(field as Path<EnquiryInput>),
          );
          if (!isForAField) setOutcome({ kind: 'failed', text: failureText(appError) });
        },
      },
    );
  });

  const title =
    outcome?.kind === 'sent'
      ? 'Enquiry sent'
      : outcome?.kind === 'failed'
        ? 'Enquiry not sent'
        : 'Product Enquiry';

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={title}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={outcome?.kind === 'failed' ? { title: { color: ERROR_TEXT, fontWeight: 700 } } : undefined}
    >
      {outcome?.kind === 'sent' && (
        <Stack gap="md">
          <Alert
            color="teal"
            variant="light"
            icon={<CheckIcon />}
            role="status"
            title="Thank you"
            styles={{ title: { color: SUCCESS_TEXT } }}
          >
            {outcome.message}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={handleClose} data-autofocus>
              OK
            </Button>
          </Group>
        </Stack>
      )}

      {outcome?.kind === 'failed' && (
        <Stack gap="md">
          <Alert
            color="red"
            variant="light"
            icon={<CrossIcon />}
            role="alert"
            title={NOT_SENT_TITLE}
            styles={{ title: { color: ERROR_TEXT } }}
          >
            <Stack gap="xs">
              <Text size="sm">{outcome.text}</Text>
              <WriteToUs email={supportEmail} />
            </Stack>
          </Alert>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button onClick={() => setOutcome(null)} data-autofocus>
              Back to the form
            </Button>
          </Group>
        </Stack>
      )}

      {outcome === null && (
        <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Product Enquiry">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {ENQUIRY_TYPE_LABELS[type]} enquiry. We reply by email during {OPENING_HOURS}.
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput
                label="First Name"
                autoComplete="given-name"
                withAsterisk
                data-autofocus
                error={errors.first_name?.message}
                {...form.register('first_name')}
              />
              <TextInput
                label="Last Name"
                autoComplete="family-name"
                withAsterisk
                error={errors.last_name?.message}
                {...form.register('last_name')}
              />
            </SimpleGrid>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              withAsterisk
              error={errors.email?.message}
              {...form.register('email')}
            />
            <Textarea
              label="Message"
              description={`Up to ${ENQUIRY_MESSAGE_MAX} characters.`}
              rows={4}
              withAsterisk
              error={errors.message?.message}
              {...form.register('message')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={send.isPending}>
                Enquire
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
