import type { StaffMe, StaffRole } from '@florin/contracts';
import { useOutletContext } from 'react-router';
import { ADMIN_PATHS } from './admin-paths';

/**
 * Which roles may open a screen, as the server's route access says it
 * (undefined: every staff member). A superadmin may open everything. The
 * server decides; this only keeps screens out of sight that would answer 404.
 */
export type ScreenRoles = readonly StaffRole[] | undefined;

export function mayOpen(role: StaffRole, roles: ScreenRoles): boolean {
  return role === 'superadmin' || roles === undefined || roles.includes(role);
}

export type AdminNavLink = { label: string; to: string; roles: ScreenRoles };

/** The back office's navigation, in this order. */
export const ADMIN_NAV_LINKS: readonly AdminNavLink[] = [
  { label: 'Compliance', to: ADMIN_PATHS.compliance, roles: ['compliance'] },
  { label: 'Customers', to: ADMIN_PATHS.customers, roles: undefined },
  { label: 'Staff', to: ADMIN_PATHS.staff, roles: [] },
  { label: 'Audit log', to: ADMIN_PATHS.auditLog, roles: ['compliance'] },
];

/** Where /admin takes a staff member: the first screen of the navigation their role may open. */
export function homePathFor(role: StaffRole): string {
  return ADMIN_NAV_LINKS.find((link) => mayOpen(role, link.roles))?.to ?? ADMIN_PATHS.customers;
}

/** The signed-in staff member, for any screen inside the admin shell (it renders nothing until it is known). */
export function useSignedInStaff(): StaffMe {
  return useOutletContext<StaffMe>();
}
