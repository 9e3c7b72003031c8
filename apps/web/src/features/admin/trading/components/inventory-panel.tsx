import { Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { formatDecimal, formatPounds } from '../../../../lib/format';
import { useHouseInventory } from '../api/get-house-inventory';

const COIN_PLACES = 8;

function signed(value: string | undefined): string {
  return value ?? '—';
}

/** The house's net position per asset (its inventory accounts) with the GBP value at the current bid. */
export function InventoryPanel() {
  const inventory = useHouseInventory();
  if (inventory.isPending)
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading the house's position" />
      </Group>
    );
  if (!inventory.data)
    return (
      <Group justify="center" gap="sm" p="md">
        <Text c="dimmed">The house's position could not be loaded.</Text>
        <Button size="compact-sm" variant="light" onClick={() => void inventory.refetch()}>
          Try again
        </Button>
      </Group>
    );
  const { assets, total_gbp_value: total, complete } = inventory.data;
  return (
    <Stack gap="xs">
      <Title order={2} fz={18}>
        House position
      </Title>
      <Text size="sm" c="dimmed">
        What the house holds of each asset from trading. A negative coin balance is coins customers bought
        that the house has not bought back: its exposure if the price rises.
      </Text>
      <Table.ScrollContainer minWidth={330}>
        <Table striped aria-label="House position">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Asset</Table.Th>
              <Table.Th ta="right">Net position</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                GBP rate
              </Table.Th>
              <Table.Th ta="right">GBP value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assets.map((row) => (
              <Table.Tr key={row.asset}>
                <Table.Th scope="row">{row.asset}</Table.Th>
                <Table.Td ta="right" c={row.balance.startsWith('-') ? 'red' : undefined}>
                  {signed(formatDecimal(row.balance, row.kind === 'fiat' ? 2 : COIN_PLACES))}
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  {row.gbp_rate === null ? 'No price' : signed(formatPounds(row.gbp_rate))}
                </Table.Td>
                <Table.Td ta="right">
                  {row.gbp_value === null ? '—' : signed(formatPounds(row.gbp_value))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row" colSpan={2}>
                Total{complete ? '' : ' (assets without a price left out)'}
              </Table.Th>
              <Table.Td visibleFrom="sm" />
              <Table.Td ta="right" fw={600}>
                {signed(formatPounds(total))}
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
