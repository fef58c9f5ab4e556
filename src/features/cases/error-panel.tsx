import { Alert, Button, Code, List, Stack, Text } from '@mantine/core';
import type { Ref } from 'react';
import type { FailureText } from '@/lib/api-error-class';
import { Revealed } from './revealed-text';
import classes from './cases.module.css';

interface ErrorPanelProps {
  view: FailureText;
  retrying: boolean;
  onRetry: () => void;
  panelRef?: Ref<HTMLDivElement>;
  /** An answer to show as it arrived (a list in a shape the site profile does not describe). */
  raw?: string;
}

export function ErrorPanel({ view, retrying, onRetry, panelRef, raw }: ErrorPanelProps) {
  const serverSaid = view.said && !view.message.includes(view.said) ? view.said : null;
  return (
    <Alert ref={panelRef} tabIndex={-1} variant="outline" color="red" title={view.title} classNames={{ title: classes.errorTitle }}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{view.message}</Text>
        {view.details.length > 0 && (
          <List size="sm" spacing={2}>
            {view.details.map((detail, index) => (
              <List.Item key={index}>
                <Code>
                  <Revealed text={detail.field} />
                </Code>
                : <Revealed text={detail.message} />
              </List.Item>
            ))}
          </List>
        )}
        {serverSaid && (
          <Text size="sm" className={classes.muted}>
            The server said: “<Revealed text={serverSaid} />”
          </Text>
        )}
        {raw !== undefined && (
          <details className={classes.rawAnswer}>
            <summary>The platform’s answer, as it arrived</summary>
            <Code block>
              <Revealed text={raw} />
            </Code>
          </details>
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
