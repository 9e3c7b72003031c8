import { CUSTOMER_READ_ROLES, type CustomerSummary } from '@florin/contracts';
import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { customerPath } from '../admin-paths';
import { AccountBadges } from '../compliance/account-badges';
import { AdminNotFound } from '../components/admin-not-found';
import { mayOpen, useSignedInStaff } from '../staff-access';
import { useCustomerSearch, type CustomerSearch } from './api/search-customers';
import { PagedResults } from '../components/paged-results';

/** The search lives in the address, so the back button returns to the same results. */
function searchFrom(searchParams: URLSearchParams): CustomerSearch {
  const page = Number(searchParams.get('page'));
  return {
    q: searchParams.get('q')?.trim() ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

function ResultsTable({ customers }: { customers: CustomerSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Customers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th>Registered</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td>
                <Anchor component={Link} to={customerPath(customer.id)} fw={600} size="sm">
                  {customer.first_name} {customer.last_name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{customer.email}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {customer.user_identification}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  <Text size="sm">{customer.account_type ?? '—'}</Text>
                  <AccountBadges status={customer.status} blockStatus={customer.block_status} />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(customer.created_at)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `/admin/customers` (support, compliance, finance): find a customer by name, e-mail or reference. */
export function CustomersPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, CUSTOMER_READ_ROLES)) return <AdminNotFound />;
  return <CustomersScreen />;
}

function CustomersScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchFrom(searchParams);
  const [text, setText] = useState(search.q);
  const { data, isError, isFetching } = useCustomerSearch(search);
  const tooShort = text.trim().length === 1;

  const handleSearch = (event: FormEvent) => {
    event.preventDefault();
    if (tooShort) return;
    const q = text.trim();
    setSearchParams(q ? { q } : {});
  };

  return (
    <Stack gap="md" maw={1200}>
      <title>Customers · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Customers
        </Title>
        <Text size="sm" c="dimmed">
          Find a customer by name, email address or reference.
        </Text>
      </Stack>
      <form onSubmit={handleSearch} role="search">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Search customers"
            placeholder="Name, email or reference (FL…)"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={tooShort ? 'Type at least 2 characters.' : undefined}
            maxLength={100}
            w={{ base: '100%', xs: 360 }}
          />
          <Button type="submit" loading={isFetching && text.trim() === search.q}>
            Search
          </Button>
        </Group>
      </form>
      <PagedResults
        data={data}
        isError={isError}
        texts={{
          error: 'The customers could not be loaded. Reload the page to try again.',
          loading: 'Loading customers',
          empty: <>No customer matches “{search.q}”.</>,
        }}
        countText={(total) => (total === 1 ? '1 customer' : `${total} customers`)}
        onPage={(page) => setSearchParams({ ...(search.q ? { q: search.q } : {}), page: String(page) })}
      >
        {(customers) => <ResultsTable customers={customers} />}
      </PagedResults>
    </Stack>
  );
}
