import { ModalsProvider } from '@mantine/modals';
import { Outlet, ScrollRestoration } from 'react-router';

/**
 * The top route. ModalsProvider lives here rather than in AppProviders so a
 * modal's content can use links and router hooks.
 */
export function RootLayout() {
  return (
    <ModalsProvider>
      <ScrollRestoration />
      <Outlet />
    </ModalsProvider>
  );
}
