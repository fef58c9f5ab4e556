/**
 * The app's query clients. What a failed query or mutation means for the whole app is decided here rather
 * than in the fetch layer, which only returns or throws: our own server's 401 (the session ended, timed
 * out, or the person was disabled) tells the app, which asks for the sites again and so shows the sign-in
 * page on the same address.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { shouldRetryQuery } from '@/lib/api-error-class';
import { isNotSignedIn } from '@/lib/own-api-failure';

export interface QueryClientOptions {
  /** Called when a query or a mutation fails because nobody is signed in any more (our server's 401). */
  onNotSignedIn?: () => void;
}

export function createQueryClient(options: QueryClientOptions = {}) {
  const { onNotSignedIn } = options;
  const onError = (error: unknown) => {
    if (onNotSignedIn && isNotSignedIn(error)) onNotSignedIn();
  };
  return new QueryClient({
    // A query a page makes on its own in the background (`meta.background`: the navigation's counts) never
    // takes the page over: a session that ended is found at the person's next step, as before.
    queryCache: new QueryCache({ onError: (error, query) => (query.meta?.background === true ? undefined : onError(error)) }),
    mutationCache: new MutationCache({ onError }),
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
