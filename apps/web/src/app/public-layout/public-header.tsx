import { Button, Container, Group } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';
import classes from './public-layout.module.css';

export function PublicHeader() {
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Link to={PATHS.home} className={classes.logo}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Florin</span>
        </Link>
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
      </Container>
    </header>
  );
}
