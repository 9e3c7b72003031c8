import { Text } from '@mantine/core';

/** When the legal texts last changed; a change to their substance changes this date. */
export const LEGAL_TEXTS_UPDATED = '26 November 2026';

export function LastUpdated() {
  return (
    <Text c="dimmed" size="sm">
      Last updated: {LEGAL_TEXTS_UPDATED}
    </Text>
  );
}
