import { Anchor, Box, Burger, Button, Container, Group, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { PATHS, PUBLIC_NAV_LINKS } from '../../lib/paths';
import { useSiteInfo } from '../../lib/site-info';
import { useIsHydrated } from '../../lib/use-is-hydrated';
import classes from './public-layout.module.css';

/** The site's pages plus the external guide and blog when configured (DECISIONS.md, Routes). */
function useNavLinks() {
  const links = useSiteInfo().data?.links;
  const external = [
    { label: 'Guide', href: links?.guide },
    { label: 'Blog', href: links?.blog },
  ].filter((link): link is { label: string; href: string } => Boolean(link.href));
  return { internal: PUBLIC_NAV_LINKS, external };
}

function DesktopNav() {
  const { internal, external } = useNavLinks();
  return (
    <Box component="nav" aria-label="Site" visibleFrom="md">
      <Group component="ul" gap={4} wrap="nowrap" className={classes.navList}>
        {internal.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className={classes.navLink}>
              {link.label}
            </NavLink>
          </li>
        ))}
        {external.map((link) => (
          <li key={link.href}>
            <Anchor href={link.href} className={classes.navLink} rel="noopener" target="_blank">
              {link.label}
            </Anchor>
          </li>
        ))}
      </Group>
    </Box>
  );
}

/** Below 990 px the site's pages move into the burger's menu; Log in and Register stay in view. */
function MobileNav() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { internal, external } = useNavLinks();
  const isHydrated = useIsHydrated();
  return (
    <Box hiddenFrom="md">
      <Menu
        opened={opened}
        onChange={(value) => (value ? toggle() : close())}
        position="bottom-end"
        width={220}
      >
        <Menu.Target>
          <Burger
            opened={opened}
            size="sm"
            aria-label={opened ? 'Close navigation' : 'Open navigation'}
            disabled={!isHydrated}
          />
        </Menu.Target>
        <Menu.Dropdown>
          {internal.map((link) => (
            <Menu.Item key={link.to} component={NavLink} to={link.to}>
              {link.label}
            </Menu.Item>
          ))}
          {external.map((link) => (
            <Menu.Item key={link.href} component="a" href={link.href} rel="noopener" target="_blank">
              {link.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}

export function PublicHeader() {
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Link to={PATHS.home} className={classes.logo}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Florin</span>
        </Link>
        <DesktopNav />
        <Group gap="xs" wrap="nowrap">
          <nav aria-label="Account">
            <Group gap="xs" wrap="nowrap">
              <Button component={Link} to={PATHS.login} variant="subtle" size="sm" px="sm">
                Log in
              </Button>
              <Button component={Link} to={PATHS.register} size="sm" px="md">
                Register
              </Button>
            </Group>
          </nav>
          <MobileNav />
        </Group>
      </Container>
    </header>
  );
}
