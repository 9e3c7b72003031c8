import { Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { COMPANY } from '../../lib/company';
import { LEGAL_LINKS } from '../../lib/paths';
import classes from './public-layout.module.css';

export function PublicFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Stack gap="sm">
          <nav aria-label="Legal">
            <Group component="ul" gap="md" className={classes.legalLinks}>
              {LEGAL_LINKS.map((link) => (
                <li key={link.to}>
                  <Anchor component={Link} to={link.to} size="sm" c="gray.3">
                    {link.label}
                  </Anchor>
                </li>
              ))}
            </Group>
          </nav>
          <Text size="sm" c="gray.4">
            © {new Date().getFullYear()} {COMPANY.name}
          </Text>
          <Text size="xs" c="gray.5">
            {COMPANY.registration}
          </Text>
        </Stack>
      </Container>
    </footer>
  );
}
