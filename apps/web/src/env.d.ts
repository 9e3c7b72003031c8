/** The year of the build (vite.config.ts defines it): a prerendered page's copyright year. */
declare const FLORIN_BUILD_YEAR: string;
