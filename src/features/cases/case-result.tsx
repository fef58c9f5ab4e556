import { Code, Stack, Tabs, Text } from '@mantine/core';
import { useId, useMemo, type Ref } from 'react';
import type { FormCaseAnswer } from '@/lib/api-client';
import { caseSections, countRows } from './case-fields';
import { CaseHeader } from './case-header';
import { caseIdentity } from './case-identity';
import { downloadText } from '@/lib/download';
import { caseFileName, caseJson } from './case-json';
import { FieldsPanel } from './fields-panel';
import { RememberedStateProvider } from './remembered-state';
import { RawJsonView } from './raw-json-view';
import { hasInvisible } from './reveal-invisible';
import classes from './cases.module.css';

interface CaseResultProps {
  /** The record and the platform's own text: the table shows the one, Raw JSON, Copy and Download the other. */
  answer: FormCaseAnswer;
  form: string;
  id: string;
  refreshing: boolean;
  onRefresh: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
  /** The site profile's name for this form and labels of its keys, if it has them. */
  formProfile?: { name?: string; fields?: Readonly<Record<string, string>> };
}

/** A note, not an alert: nothing went wrong, and nothing needs doing at once. */
function EmptyCaseNote({ form, id }: { form: string; id: string }) {
  const titleId = useId();
  return (
    <div className={classes.calmNote} role="note" aria-labelledby={titleId}>
      <Text size="sm" fw={600} id={titleId}>
        The platform found this case but sent no data for it
      </Text>
      <Text size="sm" mt={4}>
        The answer for case <Code>{id}</Code> of form <Code>{form}</Code> was an empty JSON object, <Code>{'{}'}</Code>. That is not an
        error: the case exists (a missing case answers 404), and the API specification&apos;s own example answer looks exactly like this.
        There are no fields to show. If you expected data, check the case in the site&apos;s own admin, or ask whoever runs this server
        whether the platform returns case data for this form.
      </Text>
    </div>
  );
}

export function CaseResult({ answer, form, id, refreshing, onRefresh, headingRef, formProfile }: CaseResultProps) {
  const { record, text } = answer;
  const identity = useMemo(() => caseIdentity(record, form, id, formProfile?.name), [record, form, id, formProfile]);
  // The indented text is for Copy JSON, Download JSON and the Raw JSON tab: made when first asked for,
  // not between the answer and its first screen.
  const getJson = useMemo(() => {
    let json: string | undefined;
    return () => (json ??= caseJson(text));
  }, [text]);
  const sections = useMemo(() => caseSections(record, formProfile?.fields), [record, formProfile]);
  const total = countRows(sections);
  const fileName = caseFileName(form, id);
  const isEmpty = total === 0;
  const hasMarks = useMemo(() => sections.some((section) => section.rows.some((row) => hasInvisible(row.searchText))), [sections]);

  return (
    <Stack gap="md" component="section" aria-label={`Case ${identity.caseId}`}>
      <CaseHeader
        identity={identity}
        form={form}
        getJson={getJson}
        fileName={fileName}
        refreshing={refreshing}
        onRefresh={onRefresh}
        onDownload={() => downloadText(fileName, getJson())}
        headingRef={headingRef}
      />
      {isEmpty && <EmptyCaseNote form={form} id={id} />}
      {hasMarks && (
        <Text size="sm" className={classes.muted}>
          This case holds characters that are invisible or change the direction of text. They are shown as marks such as{' '}
          <span className={classes.invisibleMark}>⟨U+202E RLO⟩</span>; Copy copies each value exactly as the platform sent it.
        </Text>
      )}
      {/* The filter, and what the reader opens, stay across the tabs and rows scrolled out of the page. */}
      <RememberedStateProvider>
        <Tabs defaultValue="fields" keepMounted={false}>
          <Tabs.List aria-label="Case views">
            <Tabs.Tab value="fields">Fields ({total})</Tabs.Tab>
            <Tabs.Tab value="raw">Raw JSON</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="fields" pt="md">
            {isEmpty ? <Text className={classes.muted}>No fields.</Text> : <FieldsPanel sections={sections} />}
          </Tabs.Panel>
          <Tabs.Panel value="raw" pt="md">
            <RawJsonView getJson={getJson} />
          </Tabs.Panel>
        </Tabs>
      </RememberedStateProvider>
    </Stack>
  );
}

export { CaseWorkSlot } from './case-work-slot';
