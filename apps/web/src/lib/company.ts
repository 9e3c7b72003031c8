/** The legal entity behind Florin, as the footer and the legal pages name it. */
export const COMPANY = {
  name: 'Florin Ltd',
  registration: 'Florin Ltd is registered in England and Wales, company number 00000000.',
} as const;
