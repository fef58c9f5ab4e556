import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 30 * 60_000,
        refetchOnWindowFocus: false,
        // Answers such as 404 or 422 will not change by asking again; only retry what might.
        retry: (failureCount, error) =>
          failureCount < 2 && error instanceof ApiError && (error.kind === 'network' || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
