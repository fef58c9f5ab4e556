import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import type { Ref } from 'react';
import type { CaseIdentity } from './case-identity';
import { RelativeTime } from './date-text';
import { Revealed } from './revealed-text';
import classes from './cases.module.css';

interface CaseHeaderProps {
  identity: CaseIdentity;
  form: string;
  /** The case as indented JSON, made when first asked for. */
  getJson: () => string;
  fileName: string;
  refreshing: boolean;
  onRefresh: () => void;
  onDownload: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
}

export function CaseHeader({ identity, form, getJson, fileName, refreshing, onRefresh, onDownload, headingRef }: CaseHeaderProps) {
  const clipboard = useClipboard({ timeout: 2000 });
  const { copied } = clipboard;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Title order={2} ref={headingRef} tabIndex={-1} className={classes.wrap}>
            <Revealed text={identity.formLabel} />: case <Revealed text={identity.caseId} />
          </Title>
          <Text size="sm" className={`${classes.muted} ${classes.tipAnchor}`}>
            Form <Code>{form}</Code>
            {identity.schemaName && identity.schemaName !== identity.formLabel && (
              <>
                {' · schema '}
                <Code>
                  <Revealed text={identity.schemaName} />
                </Code>
              </>
            )}
            {' · case '}
            <Code>
              <Revealed text={identity.caseId} />
            </Code>
            {identity.submitted ? (
              <>
                {' · submitted '}
                <RelativeTime date={identity.submitted.date} dateOnly={identity.submitted.dateOnly} />
              </>
            ) : (
              ' · no submission time in the record'
            )}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button variant="default" onClick={onRefresh} loading={refreshing} aria-label="Refresh: fetch this case again">
            Refresh
          </Button>
          {/* The name starts with the visible label, so a voice command for what is seen finds it (WCAG 2.5.3). */}
          <Button
            variant="default"
            onClick={() => clipboard.copy(getJson())}
            aria-label={copied ? 'Copied JSON of the case' : 'Copy JSON of the case'}
          >
            {copied ? 'Copied' : 'Copy JSON'}
          </Button>
          <Button variant="default" onClick={onDownload} aria-label={`Download JSON as ${fileName}`}>
            Download JSON
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
