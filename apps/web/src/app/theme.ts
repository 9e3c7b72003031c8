import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Deep teal: calm and sober, readable as white-on-colour from shade 6 up. */
const florin: MantineColorsTuple = [
  '#e7f5f7',
  '#cfe8ec',
  '#a1d0d8',
  '#6fb6c2',
  '#479faf',
  '#2e8fa1',
  '#1d7f91',
  '#0f6a7a',
  '#0b5563',
  '#07404b',
];

const SYSTEM_FONTS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

export const theme = createTheme({
  colors: { florin },
  primaryColor: 'florin',
  primaryShade: { light: 7, dark: 5 },
  black: '#14212b',
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS, fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Animations off for people who ask, and for Playwright (its screenshots would catch a modal mid-fade).
  respectReducedMotion: true,
});

/**
 * Mantine's dimmed grey (gray.6) is 3.3:1 on white, below WCAG AA for body
 * text; this one is 5.4:1 and still reads as secondary. Its light yellow and
 * orange variants (warning alerts and badges) write shade 9 on shade 1, 2.7:1
 * and 3.3:1 (Lighthouse's contrast audit on the getting-started page); these
 * darker browns are about 6:1 on the same backgrounds.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5f6b76',
    '--mantine-color-yellow-light-color': '#8a4b00',
    '--mantine-color-orange-light-color': '#a13a00',
  },
  dark: {},
});
