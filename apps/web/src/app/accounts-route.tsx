import { useSignOut } from '../features/auth/api/logout';
import { AccountsPage } from '../features/accounts/accounts-page';

/** `/user/accounts`: the Account page, given the app's sign-out for the upgrade's last step. */
export function AccountsRoute() {
  const signOut = useSignOut();
  return <AccountsPage onLogOut={() => signOut.mutate()} isLoggingOut={signOut.isPending} />;
}
