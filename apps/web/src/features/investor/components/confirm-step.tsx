import { fillText, INVESTOR_TEXTS, type InvestorJourney } from '@florin/contracts';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { showSuccessToast } from '../../../lib/toasts';
import { useConfirmFirstInvestment, useRecordWarningShown } from '../api/confirm-first-investment';

/**
 * Step 4, after the cooling-off period: the FCA's personalised risk warning
 * on its own screen. Showing it is recorded (once per visit) and accepting
 * it opens buying.
 */
export function ConfirmStep({ journey }: { journey: InvestorJourney }) {
  const navigate = useNavigate();
  const recordShown = useRecordWarningShown();
  const confirm = useConfirmFirstInvestment();
  const isRecorded = useRef(false);
  const { mutate: record } = recordShown;

  useEffect(() => {
    if (isRecorded.current) return;
    isRecorded.current = true;
    record();
  }, [record]);

  const handleAccept = () => {
    confirm.mutate(undefined, {
      onSuccess: (answer) => {
        showSuccessToast({ title: 'Thank you', message: answer.message });
        void navigate(PATHS.trade);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {INVESTOR_TEXTS.confirmHeading}
        </Title>
        <Alert color="orange" variant="light" role="alert" aria-label="Risk warning for you">
          <Text fz="lg" fw={600} lh={1.4}>
            {fillText(INVESTOR_TEXTS.personalisedWarning, { firstName: journey.first_name })}{' '}
            <Anchor
              component={Link}
              to={PATHS.riskSummary}
              target="_blank"
              rel="noopener"
              inherit
              underline="always"
            >
              {INVESTOR_TEXTS.learnMore}
            </Anchor>
            .
          </Text>
        </Alert>
        <Group>
          <Button onClick={handleAccept} loading={confirm.isPending}>
            {INVESTOR_TEXTS.confirmAccept}
          </Button>
          <Button component={Link} to={PATHS.dashboard} variant="default">
            {INVESTOR_TEXTS.confirmLeave}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
