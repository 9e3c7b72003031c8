import { Badge, Group } from '@mantine/core';

/** How an account stands, in a word or two: live or not, on hold or not. */
export function AccountBadges({ status, blockStatus }: { status: number; blockStatus: number }) {
  return (
    <Group gap={6} wrap="wrap">
      {status === 1 ? (
        <Badge color="teal" variant="light">
          Live
        </Badge>
      ) : (
        <Badge color="gray" variant="light">
          Not live
        </Badge>
      )}
      {blockStatus === 2 && (
        <Badge color="red" variant="filled">
          On hold
        </Badge>
      )}
    </Group>
  );
}
