import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type AuthCardProps = {
  title: string;
  description?: ReactNode;
  children: ReactNode;
};

/** The frame of the sign-in, registration and password screens: one narrow card under the public header. */
export function AuthCard({ title, description, children }: AuthCardProps) {
  return (
    <Container size={460} px="md" py={{ base: 'lg', sm: 56 }}>
      <title>{`${title} · Florin`}</title>
      <Paper withBorder shadow="xs" radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={{ base: 24, sm: 28 }}>
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
    </Container>
  );
}
