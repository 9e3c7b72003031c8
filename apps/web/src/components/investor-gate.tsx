import { INVESTOR_TEXTS } from '@florin/contracts';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useInvestorJourney } from '../lib/investor-journey';
import { PATHS } from '../lib/paths';

/**
 * Shown where a first investment starts (buying, term deposits, auto buys)
 * until the customer has completed the steps before it (issue 13). The
 * server refuses the investment anyway; this tells them why before they try.
 */
export function InvestorGate() {
  const journey = useInvestorJourney();
  if (!journey.data || journey.data.step === 'complete') return null;
  return (
    <Alert
      color="blue"
      variant="light"
      title={INVESTOR_TEXTS.gateTitle}
      role="region"
      aria-label={INVESTOR_TEXTS.gateTitle}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{INVESTOR_TEXTS.gateText}</Text>
        <Button component={Link} to={PATHS.invest} size="xs">
          {INVESTOR_TEXTS.gateAction}
        </Button>
      </Stack>
    </Alert>
  );
}
