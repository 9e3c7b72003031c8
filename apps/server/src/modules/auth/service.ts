import { createAccount } from './account.js';
import { createEmailChange } from './email-change.js';
import { createPasswords } from './passwords.js';
import { createRegistration } from './registration.js';
import type { AuthServiceDeps } from './shared.js';
import { createSignIn } from './sign-in.js';
import { createTwoFactor } from './two-factor.js';

export { toUserView, type AccountView } from './account.js';
export type { AuthServiceDeps, NewSession, RequestMeta } from './shared.js';
export { createSessionStore, revokeCustomerAccess, SESSION_IDLE_MINUTES } from './sessions.js';

export function createAuthService(deps: AuthServiceDeps) {
  return {
    ...createRegistration(deps),
    ...createSignIn(deps),
    ...createAccount(deps),
    ...createPasswords(deps),
    ...createEmailChange(deps),
    ...createTwoFactor(deps),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
