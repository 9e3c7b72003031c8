// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- merges into Vite's own ImportMetaEnv, which only an interface can
interface ImportMetaEnv {
  /** The year of the build (vite.config.ts): a prerendered page's copyright year. */
  readonly FLORIN_BUILD_YEAR: string;
}
