import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { StaffRole } from '@florin/contracts';
import {
  clientAddressOf,
  csrfHeaders,
  expect,
  generateTotp,
  linkIn,
  nextUsableTotpStep,
  postJson,
  test as base,
  totpStep,
  uniqueEmail,
} from './fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './test-env.js';

export { expect };
export type { StaffRole };

/**
 * Back-office fixtures. Every staff member is created by the first
 * superadmin (the one the e2e server is started with: test-env.ts), through
 * the API, as a real superadmin would: an invitation mail, the password set
 * from its link, 2FA enrolled at the first sign-in.
 */

/** A staff member who has set their password but never signed in (so no 2FA yet). */
export type InvitedStaff = { id: number; email: string; password: string; role: StaffRole };
/** A staff member with 2FA enrolled: `totpSecret` is what their authenticator app holds. */
export type StaffMember = InvitedStaff & { totpSecret: string };

/** The password the fixtures give staff: long, and not among the common ones the server refuses. */
export const STAFF_PASSWORD = 'Lighthouse-Copper-Meadow-73';

type AdminFixtures = {
  /** A new staff member of `role`, 2FA enrolled through the API, not signed in anywhere. Disabled after the test. */
  staffMember: (role: StaffRole) => Promise<StaffMember>;
  /** A new staff member of `role` with a password but no 2FA: their first sign-in enrolls it. Disabled after the test. */
  invitedStaff: (role: StaffRole) => Promise<InvitedStaff>;
  /** Signs `member` in through the API in the page's cookie jar, then opens /admin. */
  signInStaff: (page: Page, member: StaffMember) => Promise<void>;
  /** An API session of a new compliance officer, for customer stories where staff act off-screen. */
  complianceApi: APIRequestContext;
};

type AdminWorkerFixtures = {
  /** An API session of the first superadmin, shared by the worker's tests. */
  superadminApi: APIRequestContext;
};

const STEP_MS = 30_000;
/** The last 30-second step each secret's code was used for: the server takes a step once per member. */
const usedSteps = new Map<string, number>();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * A code the server has not seen for this secret: the previous, current or
 * next step's (it accepts one step either side of now), waiting for a new
 * step only when all three are spent.
 */
export async function freshStaffCode(secret: string): Promise<string> {
  const step = await nextUsableTotpStep(usedSteps.get(secret));
  usedSteps.set(secret, step);
  return generateTotp(secret, step * STEP_MS);
}

type LoginAnswer = { login_token: string; enrollment: { secret: string } | null };

/** Password, then a fresh code; returns the secret the member's app holds (the new one on a first sign-in). */
async function signInThroughApi(
  request: APIRequestContext,
  member: { email: string; password: string; totpSecret?: string },
): Promise<string> {
  const login = await postJson<LoginAnswer>(request, '/api/admin/login', {
    email: member.email,
    password: member.password,
  });
  const secret = login.enrollment?.secret ?? member.totpSecret;
  if (!secret) throw new Error(`${member.email} has 2FA, but its secret is unknown`);
  await postJson(request, '/api/admin/login-2fa', {
    login_token: login.login_token,
    code: await freshStaffCode(secret),
  });
  return secret;
}

/** What the first superadmin's authenticator holds, shared by the workers (which are separate processes). */
type SuperadminState = { secret: string; lastStep: number };

function stateDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through e2e/playwright.config.ts');
  return dir;
}

/**
 * Runs `work` while no other worker does: the first superadmin is one
 * account, whose 2FA is enrolled once per run and whose codes are good once.
 */
async function withSuperadminLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(stateDir(), 'e2e-superadmin.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`Gave up waiting for ${lock}`);
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    fs.rmdirSync(lock);
  }
}

/** Signs the first superadmin in, enrolling its 2FA if no worker has yet, never reusing a code's step. */
async function signInFirstSuperadmin(request: APIRequestContext): Promise<void> {
  await withSuperadminLock(async () => {
    const file = path.join(stateDir(), 'e2e-superadmin.json');
    const state = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as SuperadminState)
      : undefined;
    if (state) usedSteps.set(state.secret, Math.max(usedSteps.get(state.secret) ?? 0, state.lastStep));
    const secret = await signInThroughApi(request, {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      totpSecret: state?.secret,
    });
    const saved: SuperadminState = { secret, lastStep: usedSteps.get(secret) ?? totpStep() };
    fs.writeFileSync(file, JSON.stringify(saved));
  });
}

export const test = base.extend<AdminFixtures, AdminWorkerFixtures>({
  superadminApi: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({
        baseURL: `http://127.0.0.1:${process.env.E2E_PORT ?? ''}`,
        extraHTTPHeaders: {
          accept: 'application/json',
          // An address of its own, apart from the tests' (fixtures.ts), for the per-IP limits.
          'x-forwarded-for': clientAddressOf(workerInfo.workerIndex, 0),
        },
      });
      await signInFirstSuperadmin(request);
      await use(request);
      await request.dispose();
    },
    // Signing in may wait for the lock while another worker waits out its code's 30-second step, then for its own.
    { scope: 'worker', timeout: 120_000 },
  ],

  invitedStaff: async ({ superadminApi, mailbox, playwright, baseURL, clientAddress }, use) => {
    const created: number[] = [];
    await use(async (role) => {
      const email = uniqueEmail(`staff-${role}`);
      const since = new Date(Date.now() - 1_000);
      const { data } = await postJson<{ data: { id: number } }>(superadminApi, '/api/admin/staff', {
        email,
        role,
      });
      created.push(data.id);
      const mail = await mailbox.waitForMail(email, 'Set your Florin staff password', { since });
      const token = new URL(linkIn(mail)).hash.slice(1);
      const request = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
      });
      await postJson(request, '/api/admin/set-password', {
        token,
        password: STAFF_PASSWORD,
        password_confirmation: STAFF_PASSWORD,
      });
      await request.dispose();
      return { id: data.id, email, password: STAFF_PASSWORD, role };
    });
    // Nobody made for one test can sign in after it (a 409: the test disabled them itself).
    for (const id of created) {
      await superadminApi.post(`/api/admin/staff/${id}/disable`, {
        headers: await csrfHeaders(superadminApi),
      });
    }
  },

  staffMember: async ({ invitedStaff, playwright, baseURL, clientAddress }, use) => {
    await use(async (role) => {
      const member = await invitedStaff(role);
      const request = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
      });
      const totpSecret = await signInThroughApi(request, member);
      await request.dispose();
      return { ...member, totpSecret };
    });
  },

  complianceApi: async ({ invitedStaff, playwright, baseURL, clientAddress }, use) => {
    const member = await invitedStaff('compliance');
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { accept: 'application/json', 'x-forwarded-for': clientAddress },
    });
    // The first sign-in enrolls 2FA and leaves this context signed in.
    await signInThroughApi(request, member);
    await use(request);
    await request.dispose();
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring, even empty.
  signInStaff: async ({}, use) => {
    await use(async (page, member) => {
      await signInThroughApi(page.request, member);
      await page.goto('/admin');
    });
  },
});
