import {
  exportCapitalGainsPath,
  MATCH_RULE_LABELS,
  TAX_TEXTS,
  todayInLondon,
  type CapitalGainsReport,
  type TaxDisposal,
} from '@florin/contracts';
import { trimZeros } from '@florin/domain';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useSearchParams } from 'react-router';
import { describeError, toAppError } from '../../lib/errors';
import { formatDecimal, formatPounds } from '../../lib/format';
import { useCapitalGains } from './api/get-capital-gains';

// The report's days are UK calendar days (YYYY-MM-DD): shown as written, whatever the browser's time zone.
const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const formatReportDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** Every decimal the coin has, none it does not: a tax figure is not cut to 5 places. */
function coins(value: string, asset: string): string {
  const trimmed = trimZeros(value);
  return `${formatDecimal(trimmed, trimmed.split('.')[1]?.length ?? 0) ?? trimmed} ${asset}`;
}

const pounds = (value: string) => formatPounds(value) ?? value;

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Paper>
  );
}

function DisposalCard({ disposal }: { disposal: TaxDisposal }) {
  const isLoss = disposal.gain.startsWith('-');
  const title = `${formatReportDay(disposal.date)}: sold ${coins(disposal.quantity, disposal.asset)}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>{title}</Text>
          <Badge color={isLoss ? 'red' : 'teal'} variant="light" style={{ flexShrink: 0 }}>
            {isLoss ? 'Loss' : 'Gain'} {pounds(disposal.gain.replace('-', ''))}
          </Badge>
        </Group>
        <Text size="sm">
          Proceeds {pounds(disposal.proceeds)} · Allowable cost {pounds(disposal.cost)}
        </Text>
        <Table fz="sm" verticalSpacing={4} aria-label="How it was matched">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Matched with</Table.Th>
              <Table.Th>Quantity</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {disposal.matches.map((match) => (
              <Table.Tr key={`${match.rule}-${match.acquired_on ?? ''}`}>
                <Table.Td>
                  {MATCH_RULE_LABELS[match.rule]}
                  {match.acquired_on && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (bought {formatReportDay(match.acquired_on)})
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{coins(match.quantity, disposal.asset)}</Table.Td>
                <Table.Td ta="right">{pounds(match.cost)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function Report({ report }: { report: CapitalGainsReport }) {
  const { totals } = report;
  const hasUncosted = report.disposals.some((disposal) => /[1-9]/.test(disposal.uncosted_quantity));
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
        <Figure label="Proceeds" value={pounds(totals.proceeds)} />
        <Figure label="Allowable costs" value={pounds(totals.costs)} />
        <Figure label="Gains" value={pounds(totals.gains)} />
        <Figure label="Losses" value={pounds(totals.losses)} />
        <Figure label="Net gain or loss" value={pounds(totals.net)} />
      </SimpleGrid>
      {hasUncosted && (
        <Alert color="orange" variant="light" title="Some costs are missing">
          {TAX_TEXTS.uncosted}
        </Alert>
      )}
      <Stack gap="sm">
        <Title order={2} size="h3">
          Disposals
        </Title>
        {report.disposals.length === 0 ? (
          <Text c="dimmed">{TAX_TEXTS.noDisposals}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {report.disposals.map((disposal) => (
              <DisposalCard key={`${disposal.asset}-${disposal.date}`} disposal={disposal} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {report.pools.length > 0 && (
        <Stack gap="sm">
          <Title order={2} size="h3">
            Your pools
          </Title>
          <Text size="sm" c="dimmed">
            {report.tax_year.last < todayInLondon()
              ? `What you held on ${formatReportDay(report.tax_year.last)}, the end of the tax year, and its cost.`
              : 'What you hold now, and its cost.'}
          </Text>
          <Paper withBorder radius="md" p="xs">
            <Table aria-label="Section 104 pools">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Coin</Table.Th>
                  <Table.Th>Quantity</Table.Th>
                  <Table.Th ta="right">Pooled cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.pools.map((pool) => (
                  <Table.Tr key={pool.asset}>
                    <Table.Th scope="row">{pool.asset}</Table.Th>
                    <Table.Td>{coins(pool.quantity, pool.asset)}</Table.Td>
                    <Table.Td ta="right">{pounds(pool.cost)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * `/user/tax` (issue 13): an individual's capital gains for a UK tax year,
 * matched under HMRC's rules by the server, with the CSV to hand to an
 * accountant or to HMRC's calculator.
 */
export function CapitalGainsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = Number(searchParams.get('year'));
  const year = Number.isInteger(asked) && asked > 0 ? asked : undefined;
  const report = useCapitalGains(year);
  const shown = report.data;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>{`${TAX_TEXTS.title} · Florin`}</title>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1}>{TAX_TEXTS.title}</Title>
          <Text>{TAX_TEXTS.intro}</Text>
        </Stack>
        {shown && (
          <Group align="flex-end" justify="space-between">
            <Group align="flex-end" gap="sm">
              <Select
                label="Tax year"
                description={`${formatReportDay(shown.tax_year.first)} to ${formatReportDay(shown.tax_year.last)}`}
                data={shown.tax_years.map((each) => ({ value: String(each.year), label: each.label }))}
                value={String(shown.tax_year.year)}
                onChange={(value) => value && setSearchParams({ year: value })}
                allowDeselect={false}
                w={200}
              />
              {report.isFetching && <Loader size="sm" aria-label="Loading the tax year" />}
            </Group>
            <Button
              component="a"
              href={`${exportCapitalGainsPath}?year=${shown.tax_year.year}`}
              download
              variant="light"
            >
              Download CSV
            </Button>
          </Group>
        )}
        {report.isPending ? (
          <Stack gap="sm" aria-busy="true" aria-label="Loading the report">
            <Skeleton height={64} />
            <Skeleton height={160} />
          </Stack>
        ) : report.isError && !shown ? (
          <Alert color="red" title={TAX_TEXTS.loadFailed}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{describeError(toAppError(report.error))}</Text>
              <Button size="xs" variant="light" onClick={() => void report.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : (
          shown && <Report report={shown} />
        )}
        <Text size="sm" c="dimmed">
          {TAX_TEXTS.notAdvice}
        </Text>
      </Stack>
    </Container>
  );
}
