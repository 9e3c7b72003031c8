import { ActionIcon, Anchor, Container, Stack, Title, Transition, Typography } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageMeta } from '../../components/page-meta';
import { useCookieConsent } from '../../lib/cookie-consent';
import { PATHS } from '../../lib/paths';
import { useScrolledPast } from '../../lib/use-scrolled-past';
import classes from './static-page.module.css';

/** Spec 002 §2.13: the scroll-to-top arrow appears after 300 px of scrolling. */
export const SCROLL_TO_TOP_AFTER_PX = 300;

export type StaticPageProps = {
  /** The page's one h1, and its title in the browser tab. */
  title: string;
  /** The meta description search engines show. */
  description: string;
  /** Under the heading: a summary, a reading time. */
  lead?: ReactNode;
  /** 'text' (the default): a readable column of prose; 'wide': room for tables. */
  width?: 'text' | 'wide';
  /**
   * true (the default): the children are plain HTML (h2, p, ul, table), styled as prose.
   * false: they are Mantine components that style themselves.
   */
  isProse?: boolean;
  children: ReactNode;
  /** Buttons after the content, outside the prose styles (which would colour them as links). */
  actions?: ReactNode;
};

/**
 * The shell of every static page (spec 002 §2.13): a back arrow, the heading,
 * the content in a readable column, and an arrow back to the top once the
 * visitor has scrolled 300 px.
 */
export function StaticPage({
  title,
  description,
  lead,
  width = 'text',
  isProse = true,
  children,
  actions,
}: StaticPageProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <PageMeta title={title} description={description} />
      <Container size={width === 'wide' ? 'md' : 'sm'} py={{ base: 'lg', sm: 40 }}>
        <Stack gap="lg">
          <BackArrow />
          <Stack gap={4}>
            <Title order={1} ref={headingRef} tabIndex={-1} className={classes.heading}>
              {title}
            </Title>
            {lead}
          </Stack>
          {isProse ? <Typography className={classes.prose}>{children}</Typography> : children}
          {actions}
        </Stack>
      </Container>
      <ScrollToTopButton headingRef={headingRef} />
    </>
  );
}

/**
 * Back to the page the visitor came from; opened directly (a new tab, a link
 * from elsewhere), there is no such page here, so it leads home instead. A
 * real link to /home either way, so it works before the script and in a new tab.
 */
function BackArrow() {
  const navigate = useNavigate();
  // React Router gives the first entry of a session the key 'default'.
  const hasPreviousPage = useLocation().key !== 'default';
  return (
    <Anchor
      component={Link}
      to={PATHS.home}
      className={classes.back}
      size="sm"
      onClick={(event) => {
        if (!hasPreviousPage || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        void navigate(-1);
      }}
    >
      <ArrowIcon direction="left" />
      Back
    </Anchor>
  );
}

/**
 * The arrow is fixed to the bottom right; while the cookie consent bar is
 * there too, it sits just above it rather than over its buttons.
 */
function ScrollToTopButton({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const isPast = useScrolledPast(SCROLL_TO_TOP_AFTER_PX);
  const reduceMotion = useReducedMotion();
  const bottomInset = useCookieBarHeight();
  return (
    <Transition mounted={isPast} transition="slide-up" duration={150}>
      {(style) => (
        <ActionIcon
          className={classes.toTop}
          style={{ ...style, bottom: bottomInset + 16 }}
          size={48}
          radius="xl"
          aria-label="Scroll to top"
          onClick={() => {
            window.scrollTo({ top: 0, behavior: reduceMotion ? 'auto' : 'smooth' });
            // The button goes away at the top: keyboard focus moves to the heading rather than to nowhere.
            headingRef.current?.focus({ preventScroll: true });
          }}
        >
          <ArrowIcon direction="up" />
        </ActionIcon>
      )}
    </Transition>
  );
}

/** The height of the cookie consent bar while it is on screen (the public layout's), else 0. */
function useCookieBarHeight(): number {
  const consent = useCookieConsent();
  const [height, setHeight] = useState(0);
  useEffect(() => {
    if (consent !== null) return;
    const bar = document.querySelector<HTMLElement>('section[aria-label="Cookie consent"]');
    if (!bar) return;
    const observer = new ResizeObserver(() => setHeight(bar.offsetHeight));
    observer.observe(bar);
    return () => observer.disconnect();
  }, [consent]);
  return consent === null ? height : 0;
}

function ArrowIcon({ direction }: { direction: 'left' | 'up' }) {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.25}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      style={direction === 'up' ? { transform: 'rotate(90deg)' } : undefined}
    >
      <path d="M19 12H5M12 19l-7-7 7-7" />
    </svg>
  );
}

/**
 * A table in the prose that scrolls sideways inside its own box on a narrow
 * screen; the box can take keyboard focus so it can be scrolled without a mouse.
 */
export function ScrollableTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Focusable and labelled: axe's "scrollable region must be keyboard accessible".
    <div className={classes.tableScroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
