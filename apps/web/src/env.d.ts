/// <reference types="altcha/types/react" />
// The <altcha-widget> element's JSX type (auth/components/altcha-captcha.tsx). Declared here, not imported there:
// the module is types only, and the prerender build (prerender.tsx) would load it in Node, which cannot resolve it.

/** The year of the build (vite.config.ts defines it): a prerendered page's copyright year. */
declare const FLORIN_BUILD_YEAR: string;
