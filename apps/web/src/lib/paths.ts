/** Every fixed address the web app links to, so a renamed page changes in one place. */
export const PATHS = {
  root: '/',
  home: '/home',
  login: '/login',
  register: '/register',
  riskSummary: '/risk-summary',
  terms: '/terms',
  privacy: '/privacy',
  gdpr: '/GDPR',
  cookies: '/cookie',
  fees: '/fees',
  jurisdictions: '/Locations',
} as const;

/** The legal pages every public page's footer lists, in this order. */
export const LEGAL_LINKS = [
  { label: 'Terms', to: PATHS.terms },
  { label: 'Privacy', to: PATHS.privacy },
  { label: 'GDPR', to: PATHS.gdpr },
  { label: 'Cookies', to: PATHS.cookies },
  { label: 'Fees', to: PATHS.fees },
  { label: 'Jurisdictions', to: PATHS.jurisdictions },
] as const;
