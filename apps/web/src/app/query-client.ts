import { QueryClient } from '@tanstack/react-query';
import { isClientError } from '../lib/errors';

/**
 * Failures reach the user through apiCall's error handler, not here. A 4xx is
 * never retried (the same request gets the same answer); a 5xx or a network
 * failure is retried once, within the first toast's lifetime so it shows once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && !isClientError(error),
        retryDelay: 1_000,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
