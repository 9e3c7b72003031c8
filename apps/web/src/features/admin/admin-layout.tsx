import { AppError, STAFF_ROLE_LABELS, type StaffMe } from '@florin/contracts';
import {
  AppShell,
  Badge,
  Box,
  Burger,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import classes from './admin-layout.module.css';
import { ADMIN_PATHS } from './admin-paths';
import { setStaffSessionLostHandler } from './api/admin-client';
import { useStaffMe } from './api/get-me';
import { useSignOutStaff } from './api/logout';
import { ADMIN_NAV_LINKS, mayOpen } from './staff-access';

/** Where the staff login sends a member back to once signed in. */
export type AdminLoginState = { from?: string; notice?: string };

/**
 * A session that ends mid-work (idle, disabled, signed out elsewhere): back to the staff login, nothing cached kept.
 * Where the member was comes from `window.location` when the refusal arrives, not from the last render: after
 * signing out the router is already at the staff login while React still draws the old screen, whose refetches
 * are refused too, and those must not send the member to the login a second time with a notice.
 */
function useSessionLostRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const headingTo = useNavigation().location?.pathname;
  useEffect(
    () =>
      setStaffSessionLostHandler(() => {
        void (async () => {
          const { pathname, search } = window.location;
          const atLogin = pathname === ADMIN_PATHS.login || headingTo === ADMIN_PATHS.login;
          if (!atLogin) {
            const state: AdminLoginState = {
              from: pathname + search,
              notice: 'Your session has ended. Please sign in again.',
            };
            await navigate(ADMIN_PATHS.login, { replace: true, state });
          }
          queryClient.removeQueries({ queryKey: ['admin'] });
        })();
      }),
    [navigate, headingTo, queryClient],
  );
}

function StaffIdentity({ me }: { me: StaffMe }) {
  return (
    <>
      <Text size="sm" fw={600} className={classes.email}>
        {me.email}
      </Text>
      <Badge variant="light" size="sm">
        {STAFF_ROLE_LABELS[me.role]}
      </Badge>
    </>
  );
}

/**
 * The frame of every back-office screen: its own header and side navigation,
 * not the customer's. A visitor without a staff session (anyone, a customer)
 * is sent to the staff login; below 768 px the navigation folds behind a burger.
 */
export function AdminLayout() {
  const { data: me, error, isPending, refetch } = useStaffMe();
  const location = useLocation();
  const [isNavOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const signOut = useSignOutStaff();
  useSessionLostRedirect();

  // No staff session (never had one, or it ended while the tab was away): the staff sign-in.
  if (error instanceof AppError && error.code === 'NOT_FOUND') {
    const state: AdminLoginState = { from: location.pathname + location.search };
    return <Navigate to={ADMIN_PATHS.login} replace state={state} />;
  }
  if (!me) {
    return (
      <Center mih="100dvh" role={isPending ? 'status' : 'alert'} aria-label="Loading the back office">
        {isPending ? (
          <Loader />
        ) : (
          <Stack align="center" gap="sm">
            <Title order={1} fz="h3">
              The back office could not be loaded
            </Title>
            <Button onClick={() => void refetch()}>Try again</Button>
          </Stack>
        )}
      </Center>
    );
  }

  const links = ADMIN_NAV_LINKS.filter((link) => mayOpen(me.role, link.roles));

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <div className={classes.header}>
          <Burger
            opened={isNavOpen}
            onClick={toggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label={isNavOpen ? 'Close navigation' : 'Open navigation'}
            aria-expanded={isNavOpen}
            aria-controls="admin-navigation"
          />
          <Link to={ADMIN_PATHS.root} className={classes.logo}>
            <img src="/favicon.svg" alt="" width={26} height={26} />
            <span>Florin</span>
            <Badge color="dark" variant="filled" size="sm" radius="sm">
              Back office
            </Badge>
          </Link>
          <div className={classes.spacer} />
          <Group gap="xs" wrap="nowrap" visibleFrom="sm" className={classes.account}>
            <VisuallyHidden>Signed in as</VisuallyHidden>
            <StaffIdentity me={me} />
          </Group>
          <Button
            variant="default"
            size="xs"
            visibleFrom="sm"
            onClick={() => signOut.mutate()}
            loading={signOut.isPending}
          >
            Sign out
          </Button>
        </div>
      </AppShell.Header>

      <AppShell.Navbar
        p="sm"
        id="admin-navigation"
        className={classes.navbar}
        data-closed={isNavOpen ? undefined : true}
      >
        <Box component="nav" aria-label="Back office" flex={1}>
          <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
            {links.map((link) => (
              <li key={link.to}>
                {/* Choosing a screen folds the phone's navigation away again. */}
                <NavLink to={link.to} className={classes.navLink} onClick={closeNav}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </Stack>
        </Box>
        <Box hiddenFrom="sm">
          <Divider my="sm" />
          <Stack gap={6} align="flex-start">
            <StaffIdentity me={me} />
            <Button variant="default" size="xs" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              Sign out
            </Button>
          </Stack>
        </Box>
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        <Outlet context={me} />
      </AppShell.Main>
    </AppShell>
  );
}
