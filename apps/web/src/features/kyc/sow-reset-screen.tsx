import type { WealthBranch } from '@florin/domain';
import { Alert, Stack } from '@mantine/core';
import { useState } from 'react';
import { showSuccessToast } from '../../lib/toasts';
import type { User } from '@florin/contracts';
import { YesNoField } from './components/yes-no-field';
import { WealthForm } from './wizard/wealth-form';
import { WEALTH_QUESTION } from './wizard/wealth-question-step';

/**
 * Staff asked for the source of wealth again (is_sow_reset, DECISIONS.md): the £15,000 question
 * and its form, sent with sow_reset 0 through the update call. Saving fetches the user again,
 * which clears the flag and this screen.
 */
export function SowResetScreen({ user }: { user: User }) {
  const [branch, setBranch] = useState<WealthBranch>(
    user.kyc?.trades_over_threshold === 1 ? 'full' : 'reduced',
  );
  return (
    <Stack gap="lg">
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
        onChange={(value) => setBranch(value === '1' ? 'full' : 'reduced')}
      />
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
