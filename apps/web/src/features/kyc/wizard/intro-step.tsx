import { Button, Group, List, Stack, Text } from '@mantine/core';

/** Step 1: what verification asks for, and the button that starts it (spec 000 section 2). */
export function IntroStep({ onStart }: { onStart: () => void }) {
  return (
    <Stack gap="md">
      <Text>
        Before you can deposit, buy or sell, UK rules require us to verify who you are. It takes about ten
        minutes. Please have ready:
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>your address, phone number and date of birth</List.Item>
        <List.Item>your National Insurance number (or tax ID if you pay tax elsewhere)</List.Item>
        <List.Item>a passport, national ID card, residence permit or driver licence</List.Item>
        <List.Item>a proof of address from the last 3 months</List.Item>
        <List.Item>
          for a company: its certificate of incorporation, articles and the details of its directors
        </List.Item>
      </List>
      <Text size="sm" c="dimmed">
        Once you finish, we review your account within 1-2 hours (24 hours at weekends).
      </Text>
      <Group>
        <Button size="md" onClick={onStart}>
          Start Account Verification
        </Button>
      </Group>
    </Stack>
  );
}
