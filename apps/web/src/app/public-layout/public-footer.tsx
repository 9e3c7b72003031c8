import { Anchor, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { COMPANY_PLACEHOLDER_NAME, registrationText } from '../../lib/company';
import { LEGAL_LINKS, PATHS } from '../../lib/paths';
import { useSiteInfo } from '../../lib/site-info';
import classes from './public-layout.module.css';

type FooterLink = { label: string; to?: string; href?: string | null };

function FooterColumn({ title, links }: { title: string; links: FooterLink[] }) {
  const shown = links.filter((link) => link.to ?? link.href);
  return (
    <nav aria-label={title}>
      <Text fw={700} fz="sm" c="white" mb="xs">
        {title}
      </Text>
      <Stack component="ul" gap={6} className={classes.footerColumns}>
        {shown.map((link) => (
          <li key={link.label}>
            {link.to ? (
              <Anchor component={Link} to={link.to} size="sm" c="gray.3">
                {link.label}
              </Anchor>
            ) : (
              <Anchor href={link.href ?? undefined} size="sm" c="gray.3" rel="noopener" target="_blank">
                {link.label}
              </Anchor>
            )}
          </li>
        ))}
      </Stack>
    </nav>
  );
}

const subscribeToNothing = () => () => undefined;

/**
 * This year, for the copyright line. A prerendered page was drawn with the
 * year of its build (vite.config.ts defines it for both builds), so taking it
 * over starts from that year and then shows the visitor's: a page built in
 * December and opened in January is neither wrong nor redrawn.
 */
function useCurrentYear(): number {
  return useSyncExternalStore(
    subscribeToNothing,
    () => new Date().getFullYear(),
    () => Number(FLORIN_BUILD_YEAR),
  );
}

export function PublicFooter() {
  const year = useCurrentYear();
  const site = useSiteInfo().data;
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="lg">
            <FooterColumn
              title="Product"
              links={[
                { label: 'Live prices', to: PATHS.livePrices },
                { label: 'Learn crypto', to: PATHS.learnCrypto },
                { label: 'For business', to: PATHS.cryptoBusiness },
                { label: 'Fees', to: PATHS.fees },
                { label: 'Guide', href: site?.links.guide },
              ]}
            />
            <FooterColumn
              title="Company"
              links={[
                { label: 'About us', to: PATHS.about },
                { label: 'Contact us', to: PATHS.contact },
                { label: 'Blog', href: site?.links.blog },
                { label: 'Support', href: site?.links.support },
              ]}
            />
            {site && site.social.length > 0 && (
              <FooterColumn
                title="Follow us"
                links={site.social.map((link) => ({ label: link.name, href: link.url }))}
              />
            )}
          </SimpleGrid>
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
          <Stack gap={4}>
            <Text size="sm" c="gray.4">
              © {year} {site?.company.name ?? COMPANY_PLACEHOLDER_NAME}. All rights reserved.
            </Text>
            {site && (
              <Text size="xs" c="gray.4">
                {registrationText(site.company)}
              </Text>
            )}
          </Stack>
        </Stack>
      </Container>
    </footer>
  );
}
