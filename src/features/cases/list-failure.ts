/**
 * The words of a failed list of a form's cases, which only the inbox shows: kept in the inbox's chunk rather
 * than with the lookup's and the create's words on the first page.
 */
import type { ApiFailure } from '@/lib/api-error';
import { lookupText, whoAnswered, type FailureWords } from '@/lib/api-error-class';

/**
 * What a failed list of a form's cases means: as a lookup's failure, but about the list (the platform's 404
 * never gets here, it is a page without cases; its 422 is about the query, the filter most likely).
 */
export const listFailureWords =
  (form: string) =>
  (failure: ApiFailure, what: string): FailureWords => {
    if (failure.type === 'unreadable' && !failure.cutOff) {
      return { title: `The list of form ${form} could not be read`, message: `${what} There is nothing to show.` };
    }
    if (failure.type === 'configuration' && failure.by === 'server' && failure.status === 403) {
      return { title: 'You may not list cases on this site', message: what };
    }
    if (failure.type === 'answered' && failure.status === 422) {
      return {
        title: `${whoAnswered(failure)} did not accept the list’s query`,
        message: `${what} The filter or the form identifier “${form}” is not one it takes.`,
        details: true,
      };
    }
    const text = lookupText(failure, what, form, '');
    return {
      ...text,
      title: text.title.replace('The lookup failed', 'The list failed'),
      message: text.message.replace('The lookup', 'The list'),
    };
  };
