import { Button, Group, Text } from '@mantine/core';

type ViewMoreProps = {
  shown: number;
  total: number;
  /** What the list holds, for "Showing 5 of 7 addresses". */
  noun: string;
  onViewMore: () => void;
  isLoading: boolean;
};

/** Under a whitelist: how many entries show, and View More while some are hidden (spec 001 §2). */
export function ViewMore({ shown, total, noun, onViewMore, isLoading }: ViewMoreProps) {
  if (total === 0) return null;
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed">
        Showing {shown} of {total} {noun}
      </Text>
      {shown < total && (
        <Button variant="light" size="compact-sm" onClick={onViewMore} loading={isLoading}>
          View More
        </Button>
      )}
    </Group>
  );
}
