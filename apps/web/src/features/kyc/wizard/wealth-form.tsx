import {
  DECLARATIONS,
  KYC_TEXTS,
  KycBodySchema,
  WEALTH_CHOICES,
  WEALTH_QUESTIONS,
  type Declaration,
  type KycAnswers,
  type KycBody,
  type WealthQuestion,
  parseCustomerInput,
} from '@florin/contracts';
import type { WealthBranch } from '@florin/domain';
import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { showErrorToast } from '../../../lib/toasts';
import { useSaveKyc } from '../api/save-kyc';
import { StepNav } from '../components/step-nav';
import { YesNoField, type YesNoValue } from '../components/yes-no-field';

const QUESTION_LABELS: Record<WealthQuestion, string> = {
  initial_investment: 'How much do you plan to invest at first?',
  annual_income: 'What is your annual income?',
  net_worth: 'What is your net worth?',
  investment_portfolio: 'What is your investment portfolio worth?',
  source_of_wealth: 'Where does most of your wealth come from?',
  experience: 'How long have you been investing?',
  investment_trades: 'How many investment trades do you make?',
};

const DECLARATION_LABELS: Record<Declaration, string> = {
  offense: 'Have you ever been found guilty of a financial offence?',
  criminal: 'Do you have any unspent criminal convictions?',
  caution: 'Have you ever received a police caution?',
  ccj: 'Have you ever had a County Court Judgment (CCJ) against you?',
};

export const RISK_QUESTION =
  'Do you understand that crypto-assets are high risk, that their value can fall as well as rise, and that you could lose all the money you invest?';

type WealthValues = {
  aware_of_risk: YesNoValue;
  choices: Record<WealthQuestion, string>;
  declarations: Record<Declaration, YesNoValue>;
  details: Record<Declaration, string>;
};

const toYesNo = (value: 0 | 1 | null | undefined): YesNoValue =>
  value === null || value === undefined ? '' : value === 1 ? '1' : '0';

function initialValues(answers: KycAnswers | null): WealthValues {
  return {
    aware_of_risk: toYesNo(answers?.aware_of_risk),
    choices: Object.fromEntries(
      WEALTH_QUESTIONS.map((question) => [question, answers?.[question] ?? '']),
    ) as Record<WealthQuestion, string>,
    declarations: Object.fromEntries(
      DECLARATIONS.map((declaration) => [declaration, toYesNo(answers?.[declaration])]),
    ) as Record<Declaration, YesNoValue>,
    details: Object.fromEntries(
      DECLARATIONS.map((declaration) => [declaration, answers?.[`${declaration}_details`] ?? '']),
    ) as Record<Declaration, string>,
  };
}

function toBody(branch: WealthBranch, values: WealthValues, isReset: boolean): Record<string, unknown> {
  const yesNo = (value: YesNoValue) => (value === '' ? undefined : Number(value));
  const body: Record<string, unknown> = {
    trades_over_threshold: branch === 'full' ? 1 : 0,
    aware_of_risk: yesNo(values.aware_of_risk),
    ...(isReset ? { sow_reset: 0 } : {}),
  };
  if (branch === 'reduced') return body;
  for (const question of WEALTH_QUESTIONS) body[question] = values.choices[question] || undefined;
  for (const declaration of DECLARATIONS) {
    body[declaration] = yesNo(values.declarations[declaration]);
    // Details only travel with a Yes: a No clears what an earlier Yes typed.
    if (values.declarations[declaration] === '1')
      body[`${declaration}_details`] = values.details[declaration];
  }
  return body;
}

type WealthFormProps = {
  branch: WealthBranch;
  answers: KycAnswers | null;
  /** Answered before: the update call, as the spec has it. */
  isUpdate: boolean;
  /** The reset screen: sends sow_reset 0 so staff see it answered again. */
  isReset?: boolean;
  onBack?: () => void;
  onSaved: () => void;
  submitLabel?: string;
};

/**
 * Steps 8 (Source of Wealth and Experience, every question) and 9 (the risk question only), and
 * the source-of-wealth reset screen (spec 000 sections 2 and 5).
 */
export function WealthForm({
  branch,
  answers,
  isUpdate,
  isReset = false,
  onBack,
  onSaved,
  submitLabel,
}: WealthFormProps) {
  const save = useSaveKyc();
  const [values, setValues] = useState<WealthValues>(() => initialValues(answers));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isRiskConfirmOpen, setIsRiskConfirmOpen] = useState(false);

  const submit = (body: KycBody) => {
    save.mutate({ body, isUpdate }, { onSuccess: onSaved });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseCustomerInput(KycBodySchema, toBody(branch, values, isReset));
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.')] ??= issue.message;
      setErrors(fieldErrors);
      const messages = Object.values(fieldErrors);
      // Spec 000 section 5: an unanswered question has its own dialog; anything else is "Incorrect Input".
      if (messages.includes(KYC_TEXTS.pleaseChoose)) {
        showErrorToast({
          id: 'please-choose',
          title: KYC_TEXTS.pleaseChooseTitle,
          message: KYC_TEXTS.pleaseChoose,
        });
      } else {
        showErrorToast({
          id: 'incorrect-input',
          title: KYC_TEXTS.incorrectInputTitle,
          message: [...new Set(messages)].join('\n'),
        });
      }
      return;
    }
    setErrors({});
    if (parsed.data.aware_of_risk === 0) {
      setIsRiskConfirmOpen(true);
      return;
    }
    submit(parsed.data);
  };

  const handleRiskConfirmed = () => {
    setIsRiskConfirmOpen(false);
    const parsed = KycBodySchema.safeParse(toBody(branch, values, isReset));
    if (parsed.success) submit(parsed.data);
  };

  /** An answer changed: its refusal goes, as the customer has acted on it. */
  const clearError = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  const setChoice = (question: WealthQuestion, value: string) => {
    clearError(question);
    setValues((current) => ({ ...current, choices: { ...current.choices, [question]: value } }));
  };
  const setDeclaration = (declaration: Declaration, value: YesNoValue) => {
    clearError(declaration);
    clearError(`${declaration}_details`);
    setValues((current) => ({ ...current, declarations: { ...current.declarations, [declaration]: value } }));
  };
  const setDetails = (declaration: Declaration, value: string) => {
    clearError(`${declaration}_details`);
    setValues((current) => ({ ...current, details: { ...current.details, [declaration]: value } }));
  };
  const setAwareOfRisk = (value: YesNoValue) => {
    clearError('aware_of_risk');
    setValues((current) => ({ ...current, aware_of_risk: value }));
  };

  const riskQuestion = (
    <YesNoField
      label={RISK_QUESTION}
      value={values.aware_of_risk}
      onChange={setAwareOfRisk}
      error={errors.aware_of_risk}
    />
  );

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="lg">
        {branch === 'full' ? (
          <>
            <Stack gap="sm">
              <Title order={3} fz="md">
                Your wealth and experience
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                {WEALTH_QUESTIONS.map((question) => (
                  <NativeSelect
                    key={question}
                    label={QUESTION_LABELS[question]}
                    value={values.choices[question]}
                    onChange={(event) => setChoice(question, event.currentTarget.value)}
                    error={errors[question]}
                    data={[
                      { value: '', label: 'Please choose' },
                      ...Object.entries(WEALTH_CHOICES[question]).map(([value, label]) => ({ value, label })),
                    ]}
                  />
                ))}
              </SimpleGrid>
            </Stack>
            <Stack gap="md">
              <Title order={3} fz="md">
                Declarations
              </Title>
              {DECLARATIONS.map((declaration) => (
                <Stack key={declaration} gap="xs">
                  <YesNoField
                    label={DECLARATION_LABELS[declaration]}
                    value={values.declarations[declaration]}
                    onChange={(value) => setDeclaration(declaration, value)}
                    error={errors[declaration]}
                  />
                  {values.declarations[declaration] === '1' && (
                    <Textarea
                      label="Please give the details"
                      rows={4}
                      maxLength={1000}
                      value={values.details[declaration]}
                      onChange={(event) => setDetails(declaration, event.currentTarget.value)}
                      error={errors[`${declaration}_details`]}
                    />
                  )}
                </Stack>
              ))}
            </Stack>
            <Stack gap="sm">
              <Title order={3} fz="md">
                Risk
              </Title>
              {riskQuestion}
            </Stack>
          </>
        ) : (
          riskQuestion
        )}
        <StepNav onBack={onBack} isNextSubmit isNextLoading={save.isPending} nextLabel={submitLabel} />
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={isRiskConfirmOpen}
        onClose={() => setIsRiskConfirmOpen(false)}
        title={KYC_TEXTS.riskConfirmTitle}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{KYC_TEXTS.riskConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setIsRiskConfirmOpen(false)}>
              No
            </Button>
            <Button onClick={handleRiskConfirmed}>Yes</Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
