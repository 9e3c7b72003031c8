import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { getDefaultZIndex, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../lib/toasts';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

/** Everything that is not routing: theme, toasts, server state. Modals sit inside the router (root-layout.tsx). */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {/* Bottom right, three at most, newest on top: at the top they covered the header's avatar and tables' headings.
          Beneath dialogs, or a toast would cover a dialog's own Confirm button at the bottom right. */}
      <Notifications
        position="bottom-right"
        autoClose={TOAST_DURATION_MS}
        limit={TOAST_LIMIT}
        zIndex={getDefaultZIndex('modal') - 1}
        styles={{ root: { display: 'flex', flexDirection: 'column-reverse' } }}
      />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
