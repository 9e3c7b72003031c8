import {
  JOURNEY_STEP_INDEX,
  fillText,
  INVESTOR_TEXTS,
  type InvestorJourney,
  type JourneyStep,
} from '@florin/contracts';
import { Alert, Button, Container, Group, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { describeError, toAppError } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { PATHS } from '../../lib/paths';
import { useInvestorJourney } from '../../lib/investor-journey';
import { AssessmentStep } from './components/assessment-step';
import { CategoriseStep } from './components/categorise-step';
import { ConfirmStep } from './components/confirm-step';

const when = (value: string | null) => (value ? (formatDateTime(value) ?? value) : '');

function CoolingOffStep({
  journey,
  onCheck,
  isChecking,
}: {
  journey: InvestorJourney;
  onCheck: () => void;
  isChecking: boolean;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {INVESTOR_TEXTS.coolingOffHeading}
        </Title>
        <Text>{fillText(INVESTOR_TEXTS.coolingOffText, { endsAt: when(journey.cooling_off_ends_at) })}</Text>
        <Group>
          <Button variant="default" onClick={onCheck} loading={isChecking}>
            Check again
          </Button>
          <Button component={Link} to={PATHS.dashboard} variant="subtle">
            Back to the dashboard
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function CompleteStep() {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {INVESTOR_TEXTS.completeHeading}
        </Title>
        <Text>{INVESTOR_TEXTS.completeText}</Text>
        <Group>
          <Button component={Link} to={PATHS.trade}>
            Go to Trade
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function StepProgress({ step }: { step: JourneyStep }) {
  const index = JOURNEY_STEP_INDEX[step];
  const labels = INVESTOR_TEXTS.stepLabels;
  const shown = Math.min(index, labels.length - 1);
  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed">
        {step === 'complete' ? 'All steps done' : `Step ${shown + 1} of ${labels.length}: ${labels[shown]}`}
      </Text>
      <Progress
        value={(index / labels.length) * 100}
        aria-label="Progress through the steps before your first investment"
      />
    </Stack>
  );
}

/**
 * `/user/invest`: the steps a customer takes before their first investment
 * (issue 13). The server says which step they are on; each step's screen
 * moves them on, and nothing here decides whether they may buy.
 */
export function InvestorPage() {
  const journey = useInvestorJourney();

  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1} size="h2">
            {INVESTOR_TEXTS.title}
          </Title>
          <Text c="dimmed">{INVESTOR_TEXTS.intro}</Text>
        </Stack>
        {journey.isPending && (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading your progress" />
          </Group>
        )}
        {journey.isError && (
          <Alert color="red" variant="light" title="Failed!" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{describeError(toAppError(journey.error))}</Text>
              <Button size="xs" variant="default" onClick={() => void journey.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        {journey.data && (
          <>
            <StepProgress step={journey.data.step} />
            {journey.data.step === 'categorisation' && <CategoriseStep journey={journey.data} />}
            {journey.data.step === 'assessment' && <AssessmentStep journey={journey.data} />}
            {journey.data.step === 'cooling_off' && (
              <CoolingOffStep
                journey={journey.data}
                onCheck={() => void journey.refetch()}
                isChecking={journey.isFetching}
              />
            )}
            {journey.data.step === 'confirm' && <ConfirmStep journey={journey.data} />}
            {journey.data.step === 'complete' && <CompleteStep />}
          </>
        )}
      </Stack>
    </Container>
  );
}
