import { CoinIdSchema, CRYPTO_TEXTS, type FiatCurrency } from '@florin/contracts';
import { Alert, Container, Group, Paper, Select, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { LoadFailed } from '../../components/load-failed';
import { RecentActivity } from '../../components/recent-activity';
import { useLocation, useNavigate } from 'react-router';
import { isAccountActive, useCurrentUser } from '../../lib/current-user';
import { COIN_DECIMALS, formatDecimal } from '../../lib/format';
import { withdrawDepositPath, type AssetNavigationState } from '../../lib/paths';
import { usePriceFeed } from '../../lib/price-feed';
import { useBalances, useLivePortfolio } from '../../lib/portfolio';
import { useUserEvents } from '../../lib/price-stream';
import { useQueryClient } from '@tanstack/react-query';
import { CRYPTO_KEYS } from './api/crypto-keys';
import { FIAT_KEYS } from './api/fiat-keys';
import { useBankAccount, useHasAnyBankAccount } from './api/get-bank-account';
import { BankAccountForm } from './components/bank-account-form';
import { CryptoActivity } from './components/crypto-activity';
import { CryptoDepositView } from './components/crypto-deposit-view';
import { CryptoWithdrawForm } from './components/crypto-withdraw-form';
import { FiatActivity } from './components/fiat-activity';
import { FiatDepositView } from './components/fiat-deposit-view';
import { FiatWithdrawForm, RegisterBankWarning } from './components/fiat-withdraw-form';
import {
  assetValue,
  buildWalletAssets,
  pickInitialAsset,
  readNavigationState,
  tabFromSearch,
  type WalletAsset,
  type WalletTab,
} from './wallet-assets';

/** The coin's deposit view or withdraw form under its balance (spec 001 section 2). */
function CoinPanel({
  asset,
  tab,
  balance,
  isLive,
}: {
  asset: WalletAsset;
  tab: WalletTab;
  balance: string | undefined;
  isLive: boolean;
}) {
  const code = asset.key.toUpperCase();
  const coin = CoinIdSchema.safeParse(asset.key);
  const renderBody = () => {
    // A coin the chains do not carry (none today) has no address: the spec's 'contact support' text.
    if (!coin.success)
      return (
        <Alert color="blue" variant="light">
          {CRYPTO_TEXTS.contactSupport}
        </Alert>
      );
    if (tab === 'deposit') return <CryptoDepositView coin={coin.data} />;
    return <CryptoWithdrawForm coin={coin.data} isLive={isLive} />;
  };
  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="coin-heading"
    >
      <Stack gap="sm">
        <Title order={2} fz={{ base: 18, sm: 20 }} id="coin-heading">
          {tab === 'deposit' ? 'Deposit' : 'Withdraw'} {asset.label}
        </Title>
        {tab === 'deposit' && (
          <Group justify="space-between">
            <Text size="sm">Balance</Text>
            <Text fw={600} ff="monospace" data-testid="coin-balance">
              {formatDecimal(balance ?? '0', COIN_DECIMALS)} {code}
            </Text>
          </Group>
        )}
        {renderBody()}
      </Stack>
    </Paper>
  );
}

/** A chain coin's deposits and withdrawals; the general history for any other coin. */
function CoinActivity({ coinKey }: { coinKey: string }) {
  const coin = CoinIdSchema.safeParse(coinKey);
  if (!coin.success) return <RecentActivity coinId={coinKey} title={`${coinKey.toUpperCase()} activity`} />;
  return <CryptoActivity coin={coin.data} />;
}

/**
 * `/user/withdraw-deposit` and `/user/wallets` (spec 001 section 2): the
 * deposit and withdraw tabs, the asset selector, the form of the chosen
 * asset and its activity underneath. Balances and activity follow the
 * customer's money live over the page's stream.
 */
export function WalletsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tab = tabFromSearch(location.search);
  const requested = readNavigationState(location.state);
  const [chosen, setChosen] = useState<AssetNavigationState | null>(null);
  const { data: user } = useCurrentUser();
  const balances = useBalances();
  const priceFeed = usePriceFeed();
  const gbpAccount = useBankAccount('GBP');
  // Spec 001: the warning is for a customer with no bank account at all, not only none in GBP.
  const anyBankAccount = useHasAnyBankAccount();
  useLivePortfolio();
  useUserEvents((event) => {
    if (event !== 'balances') return;
    void queryClient.invalidateQueries({ queryKey: FIAT_KEYS.activityAll });
    void queryClient.invalidateQueries({ queryKey: FIAT_KEYS.withdrawInfoAll });
    void queryClient.invalidateQueries({ queryKey: CRYPTO_KEYS.activityAll });
    void queryClient.invalidateQueries({ queryKey: CRYPTO_KEYS.withdrawInfoAll });
  });

  const hasGbpBankAccount = Boolean(gbpAccount.data);
  const preselected = chosen ?? requested;
  const assets = useMemo(
    () =>
      buildWalletAssets({
        tab,
        balances: balances.data?.balances ?? {},
        coins: Object.entries(priceFeed.data ?? {}).map(([coinId, item]) => ({
          coinId,
          name: item.coin.name,
        })),
        hasGbpBankAccount,
        preselected,
      }),
    [tab, balances.data, priceFeed.data, hasGbpBankAccount, preselected],
  );
  const selected = pickInitialAsset(assets, preselected);
  // The coins come from the price feed: until it answers, a coin asked for (Withdraw BTC) is not in the list yet.
  const isLoading = balances.isPending || gbpAccount.isPending || priceFeed.isPending;
  const canMoveMoney = user ? isAccountActive(user) : true;

  const switchTab = (next: WalletTab, asset: AssetNavigationState | null = preselected) => {
    void navigate(withdrawDepositPath(next), { replace: true, state: asset ?? undefined });
  };
  /** To the bank account form of the currency being withdrawn (GBP from the page's own warning). */
  const goRegister = (currency: FiatCurrency = 'GBP') => {
    setChosen({ name: currency, type: 'fiat' });
    switchTab('deposit', { name: currency, type: 'fiat' });
  };

  const handleAssetChange = (value: string | null) => {
    const asset = assets.find((entry) => assetValue(entry) === value);
    if (!asset) return;
    const next: AssetNavigationState = { name: asset.key, type: asset.kind };
    setChosen(next);
    // Kept in the history entry too, so a reload shows the same asset.
    switchTab(tab, next);
  };

  const renderPanel = () => {
    if (isLoading)
      return (
        <Stack gap="sm" role="status" aria-label="Loading your wallets">
          <Skeleton height={36} />
          <Skeleton height={160} />
        </Stack>
      );
    if (!selected) return null;
    if (selected.kind === 'coin')
      return (
        <CoinPanel
          asset={selected}
          tab={tab}
          balance={balances.data?.balances[selected.key]?.available}
          isLive={canMoveMoney}
        />
      );
    if (tab === 'deposit')
      return (
        <Stack gap="md">
          <FiatDepositView currency={selected.key} isLive={canMoveMoney} />
          <BankAccountForm currency={selected.key} />
        </Stack>
      );
    return <FiatWithdrawForm currency={selected.key} onRegister={() => goRegister(selected.key)} />;
  };

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Deposit / Withdraw · Florin</title>
      <Stack gap="md">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          Deposit / Withdraw
        </Title>
        {!canMoveMoney && (
          <Alert color="orange" title="Your account is not live!" role="alert">
            Deposits and withdrawals open once your account is verified and live.
          </Alert>
        )}
        <Tabs
          value={tab}
          onChange={(value) => switchTab(value === 'withdraw' ? 'withdraw' : 'deposit')}
          keepMounted={false}
        >
          <Tabs.List grow>
            <Tabs.Tab value="deposit">Deposit</Tabs.Tab>
            <Tabs.Tab value="withdraw">Withdraw</Tabs.Tab>
          </Tabs.List>
        </Tabs>
        {/* A fiat withdrawal form says it itself, for its own currency. */}
        {tab === 'withdraw' && anyBankAccount.data === false && selected?.kind !== 'fiat' && (
          <RegisterBankWarning onRegister={() => goRegister()} />
        )}
        {balances.isError && !balances.data && (
          <Alert color="red" title="Failed!" role="alert">
            Your balances could not be loaded. Please reload the page.
          </Alert>
        )}
        {priceFeed.isError && !priceFeed.data && (
          <LoadFailed what="The list of coins" onRetry={() => void priceFeed.refetch()} />
        )}
        <Select
          label="Asset"
          data={assets.map((asset) => ({ value: assetValue(asset), label: asset.label }))}
          value={selected ? assetValue(selected) : null}
          onChange={handleAssetChange}
          allowDeselect={false}
          disabled={isLoading}
          maw={{ sm: 360 }}
          comboboxProps={{ withinPortal: true }}
        />
        {renderPanel()}
        {selected?.kind === 'fiat' && <FiatActivity currency={selected.key} />}
        {selected?.kind === 'coin' && <CoinActivity coinKey={selected.key} />}
      </Stack>
    </Container>
  );
}
