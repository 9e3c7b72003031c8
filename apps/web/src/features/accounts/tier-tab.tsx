import { TIER_TEXTS, type TradingTerms } from '@florin/contracts';
import { TIER_VOLUME_BOUNDS } from '@florin/domain';
import { Alert, Badge, Center, Group, Loader, Paper, Slider, Stack, Table, Text } from '@mantine/core';
import { formatPounds } from '../../lib/format';
import { useTierTerms } from './api/get-trading-terms';

/** Slider position of the Custom row: after the four tiers. */
const CUSTOM_STEP = 5;

/** 5_000_100n pence → `£50,001`: the table's whole-pound bounds. */
function wholePounds(pence: bigint): string {
  return `£${(pence / 100n).toLocaleString('en-GB')}`;
}

type Row = { key: string; step: number; name: string; volume: string; fee: string };

/** Spec 002 §9's table, with the fee column of the customer's platform (DECISIONS.md: two columns). */
function rowsFor(terms: TradingTerms): Row[] {
  const tiers = TIER_VOLUME_BOUNDS.map((band) => ({
    key: `tier-${band.tier}`,
    step: band.tier,
    name: `${TIER_TEXTS.tier} ${band.tier}`,
    volume: `${wholePounds(band.from)} to ${wholePounds(band.to ?? band.tableTo)}`,
    fee: `${terms.tier_fee_percents[band.tier - 1] ?? ''}%`,
  }));
  const custom = {
    key: 'custom',
    step: CUSTOM_STEP,
    name: TIER_TEXTS.custom,
    volume: TIER_TEXTS.customVolume,
    fee: terms.custom_fee_percent === null ? TIER_TEXTS.customFee : `${terms.custom_fee_percent}%`,
  };
  return [...tiers, custom];
}

/** The Account page's Tier tab (spec 002 §2.2): read-only slider and table, the customer's tier marked. */
export function TierTab() {
  const { data: terms, isPending, isError } = useTierTerms();
  if (isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (isError) return <Alert color="red">{TIER_TEXTS.loadFailed}</Alert>;

  const isCustom = terms.custom_fee_percent !== null;
  const currentStep = isCustom ? CUSTOM_STEP : terms.tier;
  const rows = rowsFor(terms);
  const currentName = rows.find((row) => row.step === currentStep)?.name ?? '';

  return (
    <Stack gap="lg">
      <Text c="dimmed">{TIER_TEXTS.intro}</Text>
      <Group gap="xl" wrap="wrap">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {TIER_TEXTS.volumeLabel}
          </Text>
          <Text fw={700} fz="xl" data-testid="tier-volume">
            {formatPounds(terms.volume_gbp) ?? terms.volume_gbp}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {TIER_TEXTS.yourTier}
          </Text>
          <Text fw={700} fz="xl" data-testid="tier-current">
            {currentName}
          </Text>
        </Stack>
      </Group>
      {isCustom ? (
        <Alert color="teal" title={TIER_TEXTS.customPlan}>
          {TIER_TEXTS.customPlanText.replace('{percent}', terms.custom_fee_percent ?? '')}
        </Alert>
      ) : null}
      <Paper withBorder radius="md" px={{ base: 'lg', sm: 'xl' }} pt="md" pb="xl">
        {/*
          Read-only (spec 002 §2.2): disabled, but with its bar and thumb drawn in colour, and the
          thumb left in the accessibility tree, so the customer's place still reads.
        */}
        <Slider
          disabled
          min={1}
          max={CUSTOM_STEP}
          step={1}
          value={currentStep}
          label={null}
          thumbLabel={TIER_TEXTS.sliderLabel}
          thumbValueText={() => currentName}
          marks={rows.map((row) => ({ value: row.step, label: row.name }))}
          styles={{
            bar: { backgroundColor: 'var(--mantine-primary-color-filled)' },
            thumb: {
              display: 'flex',
              borderColor: 'var(--mantine-primary-color-filled)',
              backgroundColor: 'var(--mantine-color-body)',
            },
          }}
        />
      </Paper>
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing="sm" captionSide="top">
          <Table.Caption>
            {terms.platform === 1 ? TIER_TEXTS.instantColumn : TIER_TEXTS.tradingColumn}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{TIER_TEXTS.tier}</Table.Th>
              <Table.Th>{TIER_TEXTS.volume}</Table.Th>
              <Table.Th>{TIER_TEXTS.fee}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const isCurrent = row.step === currentStep;
              return (
                <Table.Tr
                  key={row.key}
                  aria-current={isCurrent ? 'true' : undefined}
                  bg={isCurrent ? 'var(--mantine-primary-color-light)' : undefined}
                  fw={isCurrent ? 700 : undefined}
                >
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <Text span inherit style={{ whiteSpace: 'nowrap' }}>
                        {row.name}
                      </Text>
                      {isCurrent ? (
                        <Badge size="sm" variant="filled">
                          {TIER_TEXTS.current}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{row.volume}</Table.Td>
                  <Table.Td>{row.fee}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
