/** Where an import starts: a file chosen, or rows pasted from a spreadsheet. */
import { Button, Card, FileButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';

export function LoadPanel({ onLoad, busy }: { onLoad: (source: Blob | string, name: string) => void; busy: boolean }) {
  const [pasted, setPasted] = useState('');
  return (
    <Card withBorder>
      <Stack>
        <Text size="sm">
          An Excel workbook (.xlsx), a CSV or TSV file (comma, semicolon or tab separated, in any common encoding: you see which one was
          read before anything is sent), or rows pasted from Excel or Google Sheets with their header row. One row per option; a product’s
          own columns on its first row.
        </Text>
        <Group>
          <FileButton
            onChange={(file) => file && onLoad(file, file.name)}
            accept=".xlsx,.xls,.csv,.tsv,.txt,text/csv,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
          >
            {(props) => (
              <Button {...props} loading={busy}>
                Choose a file…
              </Button>
            )}
          </FileButton>
        </Group>
        <Textarea
          label="Or paste rows from a spreadsheet"
          autosize
          minRows={3}
          maxRows={8}
          value={pasted}
          onChange={(e) => setPasted(e.currentTarget.value)}
        />
        <Button w="fit-content" variant="light" disabled={pasted.trim() === '' || busy} onClick={() => onLoad(pasted, 'pasted rows')}>
          Read the pasted rows
        </Button>
      </Stack>
    </Card>
  );
}
