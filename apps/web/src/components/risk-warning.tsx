import { Anchor, Container, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';
import classes from './risk-warning.module.css';

/**
 * The FCA's standard risk warning for cryptoasset promotions. Its words are
 * prescribed: change none of them.
 */
export function RiskWarning() {
  return (
    <section aria-label="Risk warning" className={classes.strip}>
      <Container size="lg">
        <Text fz={{ base: 'xs', sm: 'sm' }} ta={{ base: 'left', sm: 'center' }} lh={1.45} c="dark.7">
          {"Don't invest unless you're prepared to lose all the money you invest. "}
          {
            'This is a high-risk investment and you should not expect to be protected if something goes wrong. '
          }
          <Anchor component={Link} to={PATHS.riskSummary} inherit c="inherit" fw={700} underline="always">
            Take 2 mins to learn more
          </Anchor>
          .
        </Text>
      </Container>
    </section>
  );
}
