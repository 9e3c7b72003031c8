import { KYC_TEXTS, SOURCE_OF_WEALTH_THRESHOLD_TEXT } from '@florin/contracts';
import type { WealthBranch } from '@florin/domain';
import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { showErrorToast } from '../../../lib/toasts';
import { StepNav } from '../components/step-nav';
import { YesNoField, type YesNoValue } from '../components/yes-no-field';

export const WEALTH_QUESTION = `Do you expect to trade more than ${SOURCE_OF_WEALTH_THRESHOLD_TEXT} a year?`;

type WealthQuestionStepProps = {
  branch: WealthBranch;
  onBack: () => void;
  onAnswer: (branch: WealthBranch) => void;
};

/** Individual step 7 / Corporate step 6: the £15,000 question, No by default (spec 000 section 2). */
export function WealthQuestionStep({ branch, onBack, onAnswer }: WealthQuestionStepProps) {
  const [answer, setAnswer] = useState<YesNoValue>(branch === 'full' ? '1' : '0');

  const handleNext = () => {
    if (answer === '') {
      showErrorToast({ title: KYC_TEXTS.pleaseChooseTitle, message: KYC_TEXTS.pleaseChoose });
      return;
    }
    onAnswer(answer === '1' ? 'full' : 'reduced');
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        We ask every customer where their money comes from. How much you expect to trade decides how many
        questions follow.
      </Text>
      <YesNoField label={WEALTH_QUESTION} value={answer} onChange={setAnswer} />
      <StepNav onBack={onBack} onNext={handleNext} />
    </Stack>
  );
}
