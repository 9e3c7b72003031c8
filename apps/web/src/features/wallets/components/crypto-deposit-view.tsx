import { CRYPTO_TEXTS, type CoinId } from '@florin/contracts';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  CopyButton,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { showSuccessToast } from '../../../lib/toasts';
import { useGenerateAddress } from '../api/generate-deposit-address';
import { useWalletAddress } from '../api/list-wallet-addresses';
import { CheckIcon, CopyIcon } from './fiat-deposit-view';

/** A value the customer copies into their sending wallet: large, monospaced, with its Copy button. */
function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Text
          fw={700}
          fz={{ base: 'md', sm: 'lg' }}
          ff="monospace"
          style={{ overflowWrap: 'anywhere' }}
          aria-label={label}
        >
          {value}
        </Text>
        <CopyButton value={value} timeout={2_000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy the ${label.toLowerCase()}`} withArrow>
              <ActionIcon
                variant="light"
                color={copied ? 'teal' : 'blue'}
                onClick={copy}
                aria-label={copied ? `${label} copied` : `Copy ${label}`}
              >
                {copied ? <CheckIcon /> : <CopyIcon />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A QR code on white (scanners need the contrast in dark mode too), with its caption when there are two. */
function QrCode({ value, label, caption }: { value: string; label: string; caption?: string }) {
  const code = (
    <Box
      p="xs"
      bg="white"
      w="fit-content"
      bd="1px solid var(--mantine-color-gray-3)"
      style={{ borderRadius: 8 }}
    >
      <QRCodeSVG value={value} size={caption ? 120 : 160} marginSize={1} role="img" aria-label={label} />
    </Box>
  );
  if (!caption) return code;
  return (
    <Stack component="figure" gap={4} align="center" m={0}>
      {code}
      <Text component="figcaption" size="sm" fw={600}>
        {caption}
      </Text>
    </Stack>
  );
}

/**
 * The crypto deposit view (spec 001 section 2): the customer's own address
 * for the coin with Copy and a QR code, for XRP the destination tag as
 * prominently as the house address (DECISIONS.md), each with a QR code, and
 * 'Generate Address' while there is none; 'contact support' when the coin takes no deposits.
 */
export function CryptoDepositView({ coin }: { coin: CoinId }) {
  const address = useWalletAddress(coin);
  const generate = useGenerateAddress();
  const code = coin.toUpperCase();

  if (address.isPending)
    return (
      <Stack gap="sm" role="status" aria-label="Loading your deposit address">
        <Skeleton height={20} width="60%" />
        <Skeleton height={120} />
      </Stack>
    );
  if (address.isError)
    return (
      <Alert color="red" title="Failed!" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Your deposit address could not be loaded. Please try again.</Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => void address.refetch()}
            loading={address.isFetching}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );

  const { wallet, unavailable } = address.data;
  if (unavailable)
    return (
      <Alert color="blue" variant="light" role="status">
        {unavailable.message}
      </Alert>
    );

  if (!wallet && coin === 'xrp')
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          XRP deposits go to our house address with a destination tag that is yours alone. Generate your tag
          to see where to send XRP.
        </Text>
        <Button
          loading={generate.isPending}
          onClick={() =>
            generate.mutate(coin, {
              onSuccess: ({ message }) => showSuccessToast({ title: 'Generate Address', message }),
            })
          }
        >
          Generate Address
        </Button>
      </Stack>
    );

  if (!wallet)
    return (
      <Alert color="blue" variant="light" role="status">
        {CRYPTO_TEXTS.contactSupport}
      </Alert>
    );

  return (
    <Stack gap="md">
      <Group align="flex-start" gap="md" wrap="wrap">
        {wallet.tag === null ? (
          <QrCode value={wallet.address} label={`QR code of your ${code} deposit address`} />
        ) : (
          // A wallet scans the address and the tag separately: the tag gets a QR code of its own,
          // or a customer who scans only the address sends without it and the deposit is not credited.
          <Group align="flex-start" gap="sm" wrap="wrap">
            <QrCode
              value={wallet.address}
              label={`QR code of the ${code} deposit address`}
              caption="Address"
            />
            <QrCode value={wallet.tag} label="QR code of your destination tag" caption="Destination tag" />
          </Group>
        )}
        <Stack gap="sm" style={{ flex: '1 1 240px', minWidth: 0 }}>
          <CopyableValue label={`${code} deposit address`} value={wallet.address} />
          {wallet.tag !== null && (
            <Paper radius="md" p="sm" bg="var(--mantine-color-yellow-light)">
              <Stack gap={6}>
                <CopyableValue label="Destination tag" value={wallet.tag} />
                <Text size="sm" fw={500}>
                  {CRYPTO_TEXTS.xrpTagWarning}
                </Text>
              </Stack>
            </Paper>
          )}
        </Stack>
      </Group>
      <Alert color="gray" variant="light" title="Before you send">
        <List size="sm" spacing={4}>
          <List.Item>
            Send only {code} to this address{wallet.tag !== null ? ', with the destination tag' : ''}. Any
            other coin sent to it is lost.
          </List.Item>
          <List.Item>
            A deposit is credited after {wallet.confirmations} confirmations on the {code} network.
          </List.Item>
          <List.Item>Deposited coins are kept in cold storage.</List.Item>
        </List>
      </Alert>
    </Stack>
  );
}
