import { SOURCE_OF_WEALTH_THRESHOLD_TEXT, type User } from '@florin/contracts';
import type { WealthBranch } from '@florin/domain';
import { Alert, Stack } from '@mantine/core';
import { useState } from 'react';
import { showSuccessToast } from '../../lib/toasts';
import { YesNoField } from './components/yes-no-field';
import { WealthForm } from './wizard/wealth-form';
import { WEALTH_QUESTION } from './wizard/wealth-question-step';

/**
 * The source of wealth asked for again (is_sow_reset, DECISIONS.md): by staff, or because this
 * year's trades passed the £15,000 the customer said they would not (sow_over_threshold), when
 * Yes is the only true answer and the full form is asked without the question. Sent with
 * sow_reset 0 through the update call; saving fetches the user again, which clears the flag and
 * this screen.
 */
export function SowResetScreen({ user }: { user: User }) {
  const overThreshold = user.sow_over_threshold === 1;
  const [chosen, setChosen] = useState<WealthBranch>(
    user.kyc?.trades_over_threshold === 1 ? 'full' : 'reduced',
  );
  // Read on every render: a sale filling meanwhile can take the year over while the screen is open.
  const branch = overThreshold ? 'full' : chosen;
  return (
    <Stack gap="lg">
      {overThreshold ? (
        <Alert
          color="yellow"
          variant="light"
          title="Please tell us about your source of wealth"
          role="status"
        >
          You have traded more than {SOURCE_OF_WEALTH_THRESHOLD_TEXT} this year. Please answer the questions
          below about your wealth and experience. Until you send them, buying and withdrawing are paused.
        </Alert>
      ) : (
        <>
          <Alert
            color="yellow"
            variant="light"
            title="Please answer the source of wealth questions again"
            role="status"
          >
            Our compliance team needs up-to-date answers about your wealth. Until you send them, buying and
            withdrawing are paused.
          </Alert>
          <YesNoField
            label={WEALTH_QUESTION}
            value={branch === 'full' ? '1' : '0'}
            onChange={(value) => setChosen(value === '1' ? 'full' : 'reduced')}
          />
        </>
      )}
      <WealthForm
        key={branch}
        branch={branch}
        answers={user.kyc}
        isUpdate
        isReset
        onSaved={() =>
          showSuccessToast({ title: 'Thank you', message: 'Your answers were sent to our compliance team.' })
        }
        submitLabel="Submit"
      />
    </Stack>
  );
}
