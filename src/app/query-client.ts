import { QueryClient } from '@tanstack/react-query';
import { shouldRetryQuery } from '@/lib/api-error-class';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 30 * 60_000,
        refetchOnWindowFocus: false,
        // Once, and only when no answer came at all; see shouldRetryQuery for why never after a 502 or 504.
        retry: shouldRetryQuery,
      },
      mutations: { retry: false },
    },
  });
}
