import { useElementSize } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { RateLimitAlert } from '../../components/rate-limit-alert';
import { CookieConsentBar } from '../../components/cookie-consent-bar';
import { RiskWarning } from '../../components/risk-warning';
import { useScrolledPast } from '../../lib/use-scrolled-past';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import classes from './public-layout.module.css';

/** Spec 002 §9, UI constants: the header becomes fixed after 60 px of scroll. */
const HEADER_FIXED_AFTER_PX = 60;

/**
 * The frame of every public page. The header and the FCA risk warning under
 * it start in the page's flow and stay pinned to the top once the visitor
 * scrolls past 60 px, so the warning is always in view; a slot of their
 * height keeps the page from jumping when they leave the flow.
 */
export function PublicLayout() {
  const isScrolledPast = useScrolledPast(HEADER_FIXED_AFTER_PX);
  const { ref, height } = useElementSize();
  // Pinned only once its height is known: a page taken over already scrolled (a prerendered one) would otherwise
  // pin it over an empty slot for a frame, and the page under it would jump.
  const isFixed = isScrolledPast && height > 0;
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <div style={isFixed ? { minHeight: height } : undefined}>
        <div ref={ref} className={classes.top} data-fixed={isFixed || undefined} data-testid="public-top">
          <PublicHeader />
          <RiskWarning />
        </div>
      </div>
      <main id="main" tabIndex={-1} className={classes.main}>
        <RateLimitAlert maw={460} />
        <Outlet />
      </main>
      <PublicFooter />
      <CookieConsentBar />
    </div>
  );
}
