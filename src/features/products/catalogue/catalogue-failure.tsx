/**
 * When the catalogue cannot be shown: a failed list in words (the one translator, `explainFailure`, with
 * the catalogue's own words beside the lookup's), and an answer the catalogue cannot read, with why and
 * what arrived, as it arrived.
 */
import { Alert, Button, Code, List, Stack, Text } from '@mantine/core';
import type { ApiFailure } from '@/lib/api-error';
import { explainFailure, lookupText, whoAnswered, type FailureWords } from '@/lib/api-error-class';
import type { CataloguePage } from './catalogue-query';
import classes from './catalogue.module.css';

/** What a failed list of the site's products means (the platform's 404 never gets here: it is an empty catalogue). */
export function catalogueFailureWords(failure: ApiFailure, what: string): FailureWords {
  if (failure.type === 'unreadable' && !failure.cutOff) {
    return { title: 'The catalogue could not be read', message: `${what} There is nothing to show.` };
  }
  if (failure.type === 'configuration' && failure.by === 'server' && failure.status === 403) {
    return { title: 'You may not see the products of this site', message: what };
  }
  if (failure.type === 'answered' && failure.status === 422) {
    return {
      title: `${whoAnswered(failure)} did not accept the list’s query`,
      message: `${what} The sort is not one it takes.`,
      details: true,
    };
  }
  if (failure.type === 'answered' && failure.status !== 429 && failure.status < 500) {
    return {
      title: `The list of products failed (${failure.status})`,
      message: `${what} The list was not accepted.`,
      details: true,
    };
  }
  const text = lookupText(failure, what, '', '');
  return { ...text, title: text.title.replace('The lookup', 'The list'), message: text.message.replace('The lookup', 'The list') };
}

export function CatalogueFailure({ error, retrying, onRetry }: { error: unknown; retrying: boolean; onRetry: () => void }) {
  const view = explainFailure(error, { kind: 'other', textOf: catalogueFailureWords });
  const serverSaid = view.said && !view.message.includes(view.said) ? view.said : null;
  return (
    <Alert variant="outline" color="red" title={view.title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{view.message}</Text>
        {view.details.length > 0 && (
          <List size="sm" spacing={2}>
            {view.details.map((detail, index) => (
              <List.Item key={index}>
                <Code>{detail.field}</Code>: {detail.message}
              </List.Item>
            ))}
          </List>
        )}
        {serverSaid && (
          <Text size="sm" className={classes.muted}>
            The server said: “{serverSaid}”
          </Text>
        )}
        {view.canRetry && (
          <Button variant="default" onClick={onRetry} loading={retrying}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

const SHOWN: Record<Extract<CataloguePage, { kind: 'unreadable' }>['what'], string> = {
  answer: 'The platform’s answer, as it arrived',
  items: 'The products of the answer, as read',
  item: 'The product, as read',
};

/**
 * An answer that is not the list the site profile describes: nothing is guessed from it. The page says why,
 * and shows what arrived, so whoever runs the server can tell which setting would read it.
 */
export function CatalogueUnreadable({ page }: { page: Extract<CataloguePage, { kind: 'unreadable' }> }) {
  return (
    <Alert variant="outline" color="red" title="The platform’s list of products could not be read" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          The platform answered the list in a shape the site profile does not describe: {page.problem}. Nothing of it is shown, rather than
          a catalogue that might be missing products. Whoever runs this server can compare it with the site profile’s{' '}
          <Code>sites[].lists.envelope</Code> and <Code>sites[].products.record</Code>.
        </Text>
        <details className={classes.rawAnswer}>
          <summary>{SHOWN[page.what]}</summary>
          <Code block>{page.text}</Code>
        </details>
      </Stack>
    </Alert>
  );
}
