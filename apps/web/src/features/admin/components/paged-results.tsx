import { Group, Loader, Pagination, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

type Page<Item> = { data: Item[]; total: number; current_page: number; last_page: number };

/** The back office's page numbers under a list, named for screen readers. */
export function PageControls({
  page,
  onPage,
}: {
  page: Pick<Page<unknown>, 'current_page' | 'last_page'>;
  onPage: (page: number) => void;
}) {
  if (page.last_page <= 1) return null;
  return (
    <Pagination
      total={page.last_page}
      value={page.current_page}
      onChange={onPage}
      size="sm"
      getControlProps={(control) => ({
        'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
      })}
    />
  );
}

/**
 * A paged back-office list: a spinner while the first page loads, the error
 * or the empty text, the items as `children` draws them, then the count and
 * the page numbers.
 */
export function PagedResults<Item>({
  data,
  isError,
  isFetching = false,
  texts,
  countText,
  onPage,
  children,
}: {
  data: Page<Item> | undefined;
  isError: boolean;
  /** A refetch of a page already shown: a small spinner beside the count. */
  isFetching?: boolean;
  texts: { loading: string; error: string; empty: ReactNode };
  countText: (total: number) => string;
  onPage: (page: number) => void;
  children: (items: Item[]) => ReactNode;
}) {
  return (
    <>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !data && (
          <Text c="dimmed" p="md">
            {texts.error}
          </Text>
        )}
        {!isError && !data && (
          <Group justify="center" p="xl">
            <Loader aria-label={texts.loading} />
          </Group>
        )}
        {data && data.data.length === 0 && (
          <Text c="dimmed" p="md">
            {texts.empty}
          </Text>
        )}
        {data && data.data.length > 0 && children(data.data)}
      </Paper>
      {data && (
        <Group justify="space-between">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {countText(data.total)}
            </Text>
            {isFetching && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          <PageControls page={data} onPage={onPage} />
        </Group>
      )}
    </>
  );
}
