/**
 * What the e2e server is started with (playwright.config.ts) and what the
 * fixtures need to know about it.
 */
export const ADMIN_EMAIL = 'admin@florin.test';
export const ADMIN_PASSWORD = 'e2e-Admin-Password-2024!';
