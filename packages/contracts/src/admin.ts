import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { pageSchema } from './pagination.js';

/**
 * The back office: staff sign-in (2FA always), staff management and the
 * audit log. Every path is under /api/admin/; without a staff session whose
 * role the route allows, each of them answers 404 NOT_FOUND, exactly like a
 * path that does not exist. Compliance and customer endpoints live in
 * admin-compliance.ts.
 */

export const STAFF_ROLES = ['superadmin', 'compliance', 'finance', 'support'] as const;
export const StaffRoleSchema = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof StaffRoleSchema>;

/** How a role reads on screen. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  superadmin: 'Superadmin',
  compliance: 'Compliance',
  finance: 'Finance',
  support: 'Support',
};

/** The spec has no back office; these texts are ours (the back-office decisions in docs/decisions/). */
export const ADMIN_TEXTS = {
  invalidCredentials: 'The email or password is incorrect.',
  staffDisabled: 'This staff account is disabled. Ask a superadmin to enable it.',
  wrongCode: 'Wrong Passcode.',
  loginExpired: 'Your sign-in took too long. Please enter your email and password again.',
  tooManyWrongCodes: 'Too many wrong codes. Please sign in again.',
  codeFormat: 'Enter the 6-digit code from your authenticator app.',
  signedOut: 'You have been signed out.',
  passwordTooShort: 'The password must be at least 12 characters.',
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  passwordMismatch: 'Password did not match!',
  passwordSet: 'Your password is set. You can now sign in.',
  passwordLinkInvalid: 'This link is invalid or has expired. Ask a superadmin to send you a new one.',
  staffEmailTaken: 'A staff member with this email already exists.',
  staffCreated: 'Staff member added. We have e-mailed them a link to set their password.',
  passwordLinkSent: 'We have e-mailed a new link to set the password.',
  roleChanged: 'Role changed.',
  staffDisabledDone: 'Staff member disabled. Their sessions have ended.',
  staffEnabledDone: 'Staff member enabled.',
  twoFactorReset: 'Two-factor authentication reset. They will set it up again at their next sign-in.',
  cannotChangeOwnRole: 'You cannot change your own role.',
  cannotDisableSelf: 'You cannot disable your own account.',
  cannotResetOwnTwoFactor: 'Another superadmin must reset your two-factor authentication.',
  alreadyDisabled: 'This staff member is already disabled.',
  alreadyEnabled: 'This staff member is already enabled.',
  notEnrolled: 'This staff member has not set up two-factor authentication yet.',
  sameRole: 'This staff member already has this role.',
} as const;

export const STAFF_PASSWORD_MIN_LENGTH = 12;

const email = z.string().trim().toLowerCase().max(254).email('Please enter a valid email address.');
const ok = z.object({ message: z.string() });
const loginToken = z.string().min(16).max(200);
const isoDateTime = z.string();

/** Six digits from the authenticator app; staff have no recovery codes (a superadmin resets 2FA). */
export const StaffCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, ADMIN_TEXTS.codeFormat);

// ---- the signed-in staff member ----

export const StaffMeSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: StaffRoleSchema,
});
export type StaffMe = z.infer<typeof StaffMeSchema>;

/** The member as the back office's shell reads them, with what their server offers. */
export const AdminMeSchema = StaffMeSchema.extend({
  /** Whether this server has the simulated chain's staff controls: never in production. */
  simulated_chain: z.boolean(),
});
export type AdminMe = z.infer<typeof AdminMeSchema>;

export const getAdminMe = defineEndpoint({
  method: 'GET',
  path: '/api/admin/me',
  summary: 'The signed-in staff member',
  responses: { 200: z.object({ data: AdminMeSchema }) },
});

// ---- sign-in ----

export const AdminLoginBodySchema = z.strictObject({
  email,
  password: z.string().min(1, 'The password field is required.').max(200),
});
export type AdminLoginBody = z.infer<typeof AdminLoginBodySchema>;

export const TwoFactorEnrollmentSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// address the QR code carries. */
  otpauth_url: z.string(),
});
export type TwoFactorEnrollment = z.infer<typeof TwoFactorEnrollmentSchema>;

export const AdminLoginResponseSchema = z.object({
  /** Good for one /login-2fa, for `expires_in` seconds. */
  login_token: z.string(),
  expires_in: z.number().int(),
  /** True on the first sign-in (or after a 2FA reset): the code must come from the new secret below. */
  must_enroll_2fa: z.boolean(),
  enrollment: TwoFactorEnrollmentSchema.nullable(),
});
export type AdminLoginResponse = z.infer<typeof AdminLoginResponseSchema>;

export const adminLogin = defineEndpoint({
  method: 'POST',
  path: '/api/admin/login',
  summary: 'Staff sign-in, step one: e-mail and password; answers a login token (and a secret to enroll)',
  body: AdminLoginBodySchema,
  responses: { 200: AdminLoginResponseSchema },
});

export const AdminLogin2faBodySchema = z.strictObject({ login_token: loginToken, code: StaffCodeSchema });

export const adminLogin2fa = defineEndpoint({
  method: 'POST',
  path: '/api/admin/login-2fa',
  summary:
    'Staff sign-in, step two: the authenticator code (enrolls 2FA on first use); sets the staff_token cookie',
  body: AdminLogin2faBodySchema,
  responses: { 200: z.object({ data: AdminMeSchema, expires_in: z.number().int() }) },
});

export const adminLogout = defineEndpoint({
  method: 'POST',
  path: '/api/admin/logout',
  summary: 'End this staff session',
  responses: { 200: ok },
});

export const AdminSetPasswordBodySchema = z
  .strictObject({
    token: loginToken,
    password: z
      .string()
      .min(STAFF_PASSWORD_MIN_LENGTH, ADMIN_TEXTS.passwordTooShort)
      .max(200, 'The password must be at most 200 characters.'),
    password_confirmation: z.string(),
  })
  .refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    message: ADMIN_TEXTS.passwordMismatch,
  });
export type AdminSetPasswordBody = z.infer<typeof AdminSetPasswordBodySchema>;

export const adminSetPassword = defineEndpoint({
  method: 'POST',
  path: '/api/admin/set-password',
  summary:
    'Set a staff password with the token from the e-mailed link (single use); signs out their sessions',
  body: AdminSetPasswordBodySchema,
  responses: { 200: ok },
});

// ---- staff management (superadmin) ----

export const StaffMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: StaffRoleSchema,
  /** False until they follow the set-password link. */
  password_set: z.boolean(),
  two_factor_enrolled: z.boolean(),
  disabled: z.boolean(),
  last_sign_in_at: isoDateTime.nullable(),
  created_at: isoDateTime,
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

const StaffParams = z.strictObject({ staffId: z.coerce.number().int().positive().max(2_147_483_647) });
const staffAnswer = z.object({ data: StaffMemberSchema, message: z.string() });

export const listStaff = defineEndpoint({
  method: 'GET',
  path: '/api/admin/staff',
  summary: 'Every staff account, oldest first',
  responses: { 200: z.object({ data: z.array(StaffMemberSchema) }) },
});

export const CreateStaffBodySchema = z.strictObject({ email, role: StaffRoleSchema });
export type CreateStaffBody = z.infer<typeof CreateStaffBodySchema>;

export const createStaff = defineEndpoint({
  method: 'POST',
  path: '/api/admin/staff',
  summary: 'Add a staff member; they get an e-mail with a single-use link to set their password',
  body: CreateStaffBodySchema,
  responses: { 201: staffAnswer },
});

export const ChangeStaffRoleBodySchema = z.strictObject({ role: StaffRoleSchema });

export const changeStaffRole = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/staff/{staffId}/role',
  summary: "Change a staff member's role (not one's own)",
  params: StaffParams,
  body: ChangeStaffRoleBodySchema,
  responses: { 200: staffAnswer },
});

export const disableStaff = defineEndpoint({
  method: 'POST',
  path: '/api/admin/staff/{staffId}/disable',
  summary: "Disable a staff account (not one's own); its sessions end at once",
  params: StaffParams,
  responses: { 200: staffAnswer },
});

export const enableStaff = defineEndpoint({
  method: 'POST',
  path: '/api/admin/staff/{staffId}/enable',
  summary: 'Enable a disabled staff account',
  params: StaffParams,
  responses: { 200: staffAnswer },
});

export const resetStaffTwoFactor = defineEndpoint({
  method: 'POST',
  path: '/api/admin/staff/{staffId}/reset-2fa',
  summary: "Remove a staff member's authenticator (not one's own); they enroll again at their next sign-in",
  params: StaffParams,
  responses: { 200: staffAnswer },
});

export const sendStaffPasswordLink = defineEndpoint({
  method: 'POST',
  path: '/api/admin/staff/{staffId}/password-link',
  summary: 'E-mail a new single-use set-password link (an expired invitation, a forgotten password)',
  params: StaffParams,
  responses: { 200: staffAnswer },
});

// ---- audit log (superadmin, compliance) ----

export const AuditEntrySchema = z.object({
  id: z.string(),
  /** Null for what the system did on its own. */
  staff_id: z.number().int().nullable(),
  staff_email: z.string().nullable(),
  /** `<area>.<verb>`, e.g. staff.role_changed, kyc.document_approved. */
  action: z.string(),
  /** What was acted on, e.g. staff, user, kyc_document. */
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  created_at: isoDateTime,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AUDIT_LOG_PAGE_SIZE = 50;

export const AuditLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  target_type: z.string().trim().min(1).max(50).optional(),
  target_id: z.string().trim().min(1).max(100).optional(),
  staff_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;

export const listAuditLog = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit-log',
  summary: 'The audit log, newest first, 50 a page; filter by target (type, id) or by staff member',
  query: AuditLogQuerySchema,
  responses: { 200: pageSchema(AuditEntrySchema) },
});
