import type { User } from '@florin/contracts';
import {
  Avatar,
  Box,
  Burger,
  Container,
  Group,
  Menu,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { useSignOut } from '../../features/auth/api/logout';
import { showsNavigation } from '../../lib/current-user';
import { formatDateTime, initialsOf, maskEmail } from '../../lib/format';
import { ACCOUNT_NAV_LINKS, PATHS } from '../../lib/paths';
import classes from './user-layout.module.css';

function lastLoginText(user: User): string {
  const when = user.last_login ? formatDateTime(user.last_login) : undefined;
  return when ? `Last login: ${when}` : 'First sign-in';
}

/** The signed-in navigation; end matching keeps Dashboard (/user) from lighting up on every page. */
function DesktopNav() {
  return (
    <Box component="nav" aria-label="Main" className={classes.nav} visibleFrom="md">
      <Group component="ul" gap={4} wrap="nowrap" className={classes.navList}>
        {ACCOUNT_NAV_LINKS.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.to === PATHS.dashboard} className={classes.navLink}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </Group>
    </Box>
  );
}

/** Spec 000 section 2: "A mobile dropdown mirrors it." */
function MobileNav() {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box hiddenFrom="md">
      <Menu
        opened={opened}
        onChange={(value) => (value ? toggle() : close())}
        position="bottom-start"
        width={220}
      >
        <Menu.Target>
          <Burger opened={opened} size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
        </Menu.Target>
        <Menu.Dropdown>
          {ACCOUNT_NAV_LINKS.map((link) => (
            <Menu.Item key={link.to} component={NavLink} to={link.to} end={link.to === PATHS.dashboard}>
              {link.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}

/**
 * The masked e-mail and last login sit beside the initials where there is
 * room (with the navigation beside them, only on wide screens), else at the
 * top of the initials menu.
 */
function AccountMenu({ user, detailsFrom }: { user: User; detailsFrom: 'sm' | 'lg' }) {
  const signOut = useSignOut();
  const maskedEmail = maskEmail(user.email);
  const initials = initialsOf(user.first_name, user.last_name);
  return (
    <Group gap="sm" wrap="nowrap">
      <Box className={classes.account} visibleFrom={detailsFrom}>
        <Text size="sm" fw={600}>
          <VisuallyHidden>Signed in as </VisuallyHidden>
          {maskedEmail}
        </Text>
        <Text size="xs" c="dimmed">
          {lastLoginText(user)}
        </Text>
      </Box>
      <Menu position="bottom-end" width={240} withinPortal>
        <Menu.Target>
          {/* The name starts with the initials the button shows, so speech control users can say what they see. */}
          <UnstyledButton aria-label={`${initials}, account menu`}>
            <Avatar color="florin" radius="xl" variant="filled">
              {initials}
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="dark">
              {user.first_name} {user.last_name}
            </Text>
            <Text size="xs" hiddenFrom={detailsFrom} className={classes.menuEmail}>
              {maskedEmail}
            </Text>
            <Text size="xs" hiddenFrom={detailsFrom}>
              {lastLoginText(user)}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          {/* The Account page opens once the account is active, like the navigation. */}
          {showsNavigation(user) && (
            <Menu.Item component={Link} to={PATHS.accounts}>
              Account
            </Menu.Item>
          )}
          {/* HMRC's matching rules are an individual's; a company's gains fall under corporation tax. */}
          {showsNavigation(user) && user.account_type === 'Individual' && (
            <Menu.Item component={Link} to={PATHS.tax}>
              Tax report
            </Menu.Item>
          )}
          <Menu.Item component={Link} to={PATHS.settings}>
            Settings
          </Menu.Item>
          <Menu.Item color="red" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** Spec 000 section 2: logo, the navigation when the account is active, the masked e-mail, last login and the initials menu. */
export function UserHeader({ user }: { user: User }) {
  const showNav = showsNavigation(user);
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        {showNav && <MobileNav />}
        <Link to={PATHS.dashboard} className={classes.logo}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Florin</span>
        </Link>
        {showNav && <DesktopNav />}
        <div className={classes.spacer} />
        <AccountMenu user={user} detailsFrom={showNav ? 'lg' : 'sm'} />
      </Container>
    </header>
  );
}
