import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ADMIN_PATHS } from '../admin-paths';

/** An address in the back office that names no screen, or one the staff member's role does not open. */
export function AdminNotFound() {
  return (
    <Stack align="center" gap="md" ta="center" py={{ base: 48, sm: 96 }}>
      <title>Not found · Florin back office</title>
      <Title order={1}>Not found</Title>
      <Text c="dimmed" maw={420}>
        There is no such page in the back office, or your role does not open it.
      </Text>
      <Button component={Link} to={ADMIN_PATHS.root}>
        Back to the back office
      </Button>
    </Stack>
  );
}
