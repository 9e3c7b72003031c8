import { Badge, Center, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type AdminAuthCardProps = { title: string; description?: ReactNode; children: ReactNode };

/** The frame of the staff sign-in and set-password screens: one card, nothing of the customer site around it. */
export function AdminAuthCard({ title, description, children }: AdminAuthCardProps) {
  return (
    <Center mih="100dvh" bg="gray.0">
      <Container size={480} px="md" py="lg" w="100%">
        <title>{`${title} · Florin back office`}</title>
        <Stack gap="md">
          <Group gap={8} justify="center">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <Text fw={800} fz={22} c="florin.8">
              Florin
            </Text>
            <Badge color="dark" variant="filled" size="sm" radius="sm">
              Back office
            </Badge>
          </Group>
          <Paper withBorder shadow="xs" radius="md" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="lg">
              <Stack gap={4}>
                <Title order={1} fz={{ base: 22, sm: 26 }}>
                  {title}
                </Title>
                {description && (
                  <Text c="dimmed" size="sm">
                    {description}
                  </Text>
                )}
              </Stack>
              {children}
            </Stack>
          </Paper>
        </Stack>
      </Container>
    </Center>
  );
}
