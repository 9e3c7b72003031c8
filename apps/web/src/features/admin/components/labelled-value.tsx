import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small label over its value, which may wrap anywhere (addresses, hashes, long names). */
export function LabelledValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}
