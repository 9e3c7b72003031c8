import {
  CATEGORY_FIELD_LABELS,
  CATEGORY_STATEMENTS,
  CategoriseBodySchema,
  INVESTOR_TEXTS,
  type InvestorCategory,
  type InvestorJourney,
  parseCustomerInput,
} from '@florin/contracts';
import { Alert, Button, Checkbox, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError, toAppError } from '../../../lib/errors';
import { showSuccessToast } from '../../../lib/toasts';
import { useCategoriseInvestor } from '../api/categorise-investor';

type FigureField = keyof typeof CATEGORY_FIELD_LABELS;
const NONE = 'none';

/** The figures each category asks for, in the order shown. */
const FIELDS_OF: Record<InvestorCategory, readonly FigureField[]> = {
  restricted: ['past_percent', 'intended_percent'],
  high_net_worth: ['annual_income', 'net_assets'],
  sophisticated: ['certifying_firm', 'certified_on'],
  large_undertaking: ['balance_sheet_total', 'net_turnover', 'own_funds'],
};

const FIELD_TYPES: Partial<Record<FigureField, { type?: string; inputMode?: 'decimal' }>> = {
  certified_on: { type: 'date' },
  certifying_firm: {},
};

/**
 * Step 1: the customer chooses the investor statement that describes them,
 * gives its figures and confirms it. The server checks the figures against
 * the category's rule and answers on the field.
 */
export function CategoriseStep({ journey }: { journey: InvestorJourney }) {
  const statements = CATEGORY_STATEMENTS[journey.account_type] as Record<
    string,
    { label: string; statement: string }
  >;
  const [category, setCategory] = useState<string>(journey.category ?? '');
  const [figures, setFigures] = useState<Partial<Record<FigureField, string>>>({});
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const categorise = useCategoriseInvestor();
  const chosen = category && category !== NONE ? (category as InvestorCategory) : null;

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!chosen) {
      setErrors({ category: 'Choose the statement that describes you.' });
      return;
    }
    const body = {
      category: chosen,
      ...Object.fromEntries(FIELDS_OF[chosen].map((field) => [field, (figures[field] ?? '').trim()])),
      confirmed,
    };
    const parsed = parseCustomerInput(CategoriseBodySchema, body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    categorise.mutate(parsed.data, {
      onSuccess: (answer) => showSuccessToast({ title: 'Saved', message: answer.message }),
      onError: (error) => {
        const appError = toAppError(error);
        const fieldErrors = Object.fromEntries(
          Object.entries(appError.errors ?? {}).map(([field, messages]) => [field, messages[0] ?? '']),
        );
        if (Object.keys(fieldErrors).length > 0) setErrors(fieldErrors);
        else setFailure(describeError(appError));
      },
    });
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={handleSubmit} noValidate aria-label="Your investor type">
        <Stack gap="md">
          <Title order={2} size="h3">
            {INVESTOR_TEXTS.categoriseHeading}
          </Title>
          <Text size="sm" c="dimmed">
            {INVESTOR_TEXTS.categoriseIntro}
          </Text>
          <Radio.Group
            value={category}
            onChange={(value) => {
              setCategory(value);
              setErrors({});
              setConfirmed(false);
            }}
            label="Investor type"
            error={errors.category}
          >
            <Stack gap="xs" mt="xs">
              {Object.entries(statements).map(([value, { label }]) => (
                <Radio key={value} value={value} label={label} />
              ))}
              <Radio value={NONE} label={INVESTOR_TEXTS.noneLabel} />
            </Stack>
          </Radio.Group>

          {category === NONE && (
            <Alert color="gray" variant="light" role="status">
              {INVESTOR_TEXTS.noneText}
            </Alert>
          )}

          {chosen && (
            <Stack gap="sm">
              <Paper bg="gray.0" p="sm" radius="sm">
                <Text size="sm" fw={500}>
                  {statements[chosen]!.statement}
                </Text>
              </Paper>
              {FIELDS_OF[chosen].map((field) => (
                <TextInput
                  key={field}
                  label={CATEGORY_FIELD_LABELS[field]}
                  type={FIELD_TYPES[field]?.type ?? 'text'}
                  inputMode={field in FIELD_TYPES ? undefined : 'decimal'}
                  value={figures[field] ?? ''}
                  onChange={(event) => {
                    const { value } = event.currentTarget;
                    setFigures((current) => ({ ...current, [field]: value }));
                  }}
                  error={errors[field]}
                  required
                />
              ))}
              <Checkbox
                label={INVESTOR_TEXTS.confirmStatement}
                checked={confirmed}
                onChange={(event) => setConfirmed(event.currentTarget.checked)}
                error={errors.confirmed}
              />
            </Stack>
          )}

          {failure && (
            <Alert color="red" variant="light" title="Failed!" role="alert">
              {failure}
            </Alert>
          )}
          {category !== NONE && (
            <Button type="submit" loading={categorise.isPending} style={{ alignSelf: 'flex-start' }}>
              {INVESTOR_TEXTS.categoriseSubmit}
            </Button>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
