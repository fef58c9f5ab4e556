import { queryOptions } from '@tanstack/react-query';
import { getFormCase } from '@/lib/api-client';

/** One form case; the key and the fetcher travel together. */
export function formCaseQueryOptions(form: string, id: string) {
  return queryOptions({
    queryKey: ['form-case', form, id] as const,
    queryFn: ({ signal }) => getFormCase(form, id, signal),
  });
}
