import { Navigate } from 'react-router';
import { homePathFor, useSignedInStaff } from './staff-access';

/** /admin itself: the compliance queue for compliance, the customer search for support and finance. */
export function AdminHome() {
  const staff = useSignedInStaff();
  return <Navigate to={homePathFor(staff.role)} replace />;
}
