import { Outlet } from 'react-router';
import { RiskWarning } from '../../components/risk-warning';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import classes from './public-layout.module.css';

/**
 * The frame of every public page. The FCA wants the risk warning visible
 * without scrolling, so it stays pinned under the header.
 */
export function PublicLayout() {
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <div className={classes.top}>
        <PublicHeader />
        <RiskWarning />
      </div>
      <main id="main" tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}
