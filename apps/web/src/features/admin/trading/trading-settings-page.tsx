import { CRYPTO_ASSETS, type AdminCoin } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import { Accordion, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AdminNotFound } from '../components/admin-not-found';
import { mayOpen, TRADING_SCREEN_ROLES, useSignedInStaff } from '../staff-access';
import { useAdminCoins } from './api/list-admin-coins';
import { useAdminCurrencies } from './api/list-admin-currencies';
import { CoinSettingsForm } from './components/coin-settings-form';
import { CurrencySettingsForm } from './components/currency-settings-form';
import { FeePlansPanel } from './components/fee-plans-panel';
import { InventoryPanel } from './components/inventory-panel';

const TABS = ['coins', 'currencies', 'fee-plans', 'position'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  coins: 'Coins',
  currencies: 'Currencies',
  'fee-plans': 'Fee plans',
  position: 'House position',
};

function tabFrom(value: string | null): Tab {
  return TABS.find((tab) => tab === value) ?? 'coins';
}

const ASSET_ORDER: readonly string[] = CRYPTO_ASSETS;
const CURRENCY_ORDER: readonly string[] = FIAT_CODES;

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Group justify="center" gap="sm" p="md">
      <Text c="dimmed">The {what} could not be loaded.</Text>
      <Button size="compact-sm" variant="light" onClick={onRetry}>
        Try again
      </Button>
    </Group>
  );
}

function CoinBadges({ coin }: { coin: AdminCoin }) {
  return (
    <Group gap={4}>
      {!coin.active && (
        <Badge size="sm" color="gray">
          Inactive
        </Badge>
      )}
      {coin.disable_buy && (
        <Badge size="sm" color="orange" variant="light">
          Buy off
        </Badge>
      )}
      {coin.disable_sell && (
        <Badge size="sm" color="orange" variant="light">
          Sell off
        </Badge>
      )}
      {coin.platform_fee !== null && (
        <Badge size="sm" color="blue" variant="light">
          Fee cap {coin.platform_fee} %
        </Badge>
      )}
    </Group>
  );
}

function CoinsPanel() {
  const coins = useAdminCoins();
  if (coins.isPending)
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading the coins" />
      </Group>
    );
  if (!coins.data) return <LoadFailed what="coins" onRetry={() => void coins.refetch()} />;
  const sorted = [...coins.data].sort((a, b) => ASSET_ORDER.indexOf(a.asset) - ASSET_ORDER.indexOf(b.asset));
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Changes apply to the next quote. Daily withdrawal limits and automatic approval are on the crypto
        withdrawal settings page.
      </Text>
      <Accordion variant="separated" radius="md" chevronPosition="right">
        {sorted.map((coin) => (
          <Accordion.Item key={coin.coin_id} value={coin.coin_id}>
            <Accordion.Control aria-label={`${coin.asset} ${coin.name}`}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text fw={600}>
                  {coin.asset}{' '}
                  <Text span c="dimmed" fw={400}>
                    {coin.name}
                  </Text>
                </Text>
                <CoinBadges coin={coin} />
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <CoinSettingsForm coin={coin} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function CurrenciesPanel() {
  const currencies = useAdminCurrencies();
  if (currencies.isPending)
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading the currencies" />
      </Group>
    );
  if (!currencies.data) return <LoadFailed what="currencies" onRetry={() => void currencies.refetch()} />;
  return (
    <Stack gap="md">
      {[...currencies.data]
        .sort((a, b) => CURRENCY_ORDER.indexOf(a.code) - CURRENCY_ORDER.indexOf(b.code))
        .map((currency) => (
          <CurrencySettingsForm key={currency.code} currency={currency} />
        ))}
    </Stack>
  );
}

/** `/admin/trading-settings` (finance): coins, fiat withdrawal settings, fee plans and the house's position. */
export function TradingSettingsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, TRADING_SCREEN_ROLES)) return <AdminNotFound />;
  return <TradingSettingsScreen />;
}

function TradingSettingsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabFrom(searchParams.get('tab'));
  return (
    <Stack gap="md" maw={1100}>
      <title>Trading settings · Florin back office</title>
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        Trading settings
      </Title>
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams({ tab: tabFrom(value) }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="coins">
          <CoinsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="currencies">
          <CurrenciesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="fee-plans">
          <FeePlansPanel />
        </Tabs.Panel>
        <Tabs.Panel value="position">
          <InventoryPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
