import { ACCOUNT_TEXTS, UPGRADE_TEXTS, type User } from '@florin/contracts';
import { countryName } from '@florin/domain';
import { Badge, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { CloseAccountSection } from './close-account-section';

const birthdayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `1980-05-17` → `17 May 1980`; anything unreadable as it came. */
function formatBirthday(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : birthdayFormat.format(date);
}

type Field = { label: string; value: string | null | undefined };

/** Countries are kept as ISO codes; the customer reads the name ("United Kingdom", not "GB"). */
function nameOf(code: string | null | undefined): string | null | undefined {
  return code ? countryName(code) : code;
}

/** Spec 002 §2.2: Corporate accounts show the company's address in place of the personal one. */
function fieldsOf(user: User): Field[] {
  const names: Field[] = [
    { label: ACCOUNT_TEXTS.firstName, value: user.first_name },
    { label: ACCOUNT_TEXTS.lastName, value: user.last_name },
  ];
  const address: Field[] =
    user.account_type === 'Corporate'
      ? [
          { label: ACCOUNT_TEXTS.companyAddress, value: user.company?.address },
          { label: ACCOUNT_TEXTS.companyCity, value: user.company?.city },
          { label: ACCOUNT_TEXTS.companyZip, value: user.company?.zip },
          { label: ACCOUNT_TEXTS.companyCountry, value: nameOf(user.company?.country) },
        ]
      : [
          { label: ACCOUNT_TEXTS.address, value: user.address },
          { label: ACCOUNT_TEXTS.city, value: user.city },
          { label: ACCOUNT_TEXTS.postcode, value: user.zip },
          { label: ACCOUNT_TEXTS.country, value: nameOf(user.country) },
        ];
  const contact: Field[] = [{ label: ACCOUNT_TEXTS.phone, value: user.phone }];
  if (user.account_type !== 'Corporate') {
    contact.push({
      label: ACCOUNT_TEXTS.birthday,
      value: user.birthdate === null ? null : formatBirthday(user.birthdate),
    });
  }
  contact.push({ label: ACCOUNT_TEXTS.email, value: user.email });
  return [...names, ...address, ...contact];
}

type AccountDetailsTabProps = { user: User; onUpgrade: () => void; onChangeDetails: () => void };

/**
 * The Account page's first tab (spec 002 §2.2): read-only details, a change of address or phone for an
 * Individual (DECISIONS.md), and, for instant accounts, the upgrade.
 */
export function AccountDetailsTab({ user, onUpgrade, onChangeDetails }: AccountDetailsTabProps) {
  const isInstant = user.platform === 1;

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        {fieldsOf(user).map((field) => (
          <TextInput
            key={field.label}
            label={field.label}
            value={field.value ?? ''}
            placeholder="—"
            readOnly
            variant="filled"
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        {user.account_type === 'Individual' && (
          <Button variant="default" onClick={onChangeDetails}>
            {ACCOUNT_TEXTS.changeDetails}
          </Button>
        )}
        {isInstant ? (
          <Button onClick={onUpgrade}>{UPGRADE_TEXTS.upgradeButton}</Button>
        ) : (
          <Badge variant="light" color="teal" size="lg">
            {ACCOUNT_TEXTS.tradingAccount}
          </Badge>
        )}
      </Group>
      <CloseAccountSection />
    </Stack>
  );
}
