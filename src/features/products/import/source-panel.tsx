/**
 * How the file was read, said before anything is sent: the encoding of a text file (and why that one),
 * with a sample line where a wrong guess shows; the sheet of a workbook. Where the file is still in
 * memory and nothing was sent from it, another encoding or sheet can be chosen.
 */
import { Alert, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { TEXT_ENCODINGS } from '@/contract/imports';
import { ENCODING_LABELS, type TextEncodingName } from './encoding';
import type { FileSource } from './import-store';
import { WARNING_STYLES } from './warning';

const HOW: Record<Extract<FileSource, { kind: 'text' }>['how'], string> = {
  bom: 'the file says so (a byte order mark)',
  'valid-utf-8': 'the file is valid UTF-8',
  'not-utf-8': 'the file is not valid UTF-8, and this is what Excel on Windows saves as “CSV”',
  chosen: 'you chose it',
};

const short = (encoding: TextEncodingName) => ENCODING_LABELS[encoding].replace(/ \(.*$/, '');

export function SourcePanel({
  source,
  canChoose,
  onChoose,
}: {
  source: FileSource | undefined;
  canChoose: boolean;
  onChoose: (choice: { encoding?: TextEncodingName; sheet?: number }) => void;
}) {
  if (!source || source.kind === 'pasted') return null;
  if (source.kind === 'workbook') {
    const sheet = source.sheets[source.sheet];
    const firstEmpty = source.sheet > 0 && source.sheets[0]?.rows === 0;
    return (
      <Group gap="md" align="flex-end" wrap="wrap">
        <Text size="sm" role="status" aria-label="How the file was read">
          Excel workbook: read sheet <b>“{sheet?.name}”</b>
          {source.sheets.length > 1 ? ` (${source.sheet + 1} of ${source.sheets.length})` : ''}
          {firstEmpty ? `; the first sheet, “${source.sheets[0]?.name}”, is empty` : ''}. Cells are read as Excel shows them.
        </Text>
        {canChoose && source.sheets.length > 1 && (
          <NativeSelect
            label="Sheet"
            size="xs"
            value={String(source.sheet)}
            onChange={(event) => onChoose({ sheet: Number(event.currentTarget.value) })}
            data={source.sheets.map((s, i) => ({
              value: String(i),
              label: `${s.name} (${s.rows === 0 ? 'empty' : `${s.rows} rows`})`,
              disabled: s.rows === 0,
            }))}
          />
        )}
      </Group>
    );
  }
  const doubtful = source.how === 'not-utf-8' || source.unreadable > 0;
  const body = (
    <Stack gap={6}>
      <Text size="sm">
        Read as <b>{short(source.encoding)}</b>: {HOW[source.how]}.
        {source.unreadable > 0
          ? ` ${source.unreadable} ${source.unreadable === 1 ? 'character' : 'characters'} could not be read; ${source.unreadable === 1 ? 'its cell is' : 'their cells are'} marked below and will not be sent.`
          : ''}
        {source.how === 'not-utf-8'
          ? ' Check the accents in the sample line; if they look wrong, choose the encoding the file was saved in.'
          : ''}
      </Text>
      <Text size="sm">
        Sample line: <code data-testid="sample-line">{source.sample}</code>
      </Text>
      {canChoose && (
        <NativeSelect
          label="Encoding"
          size="xs"
          w="fit-content"
          value={source.encoding}
          onChange={(event) => onChoose({ encoding: event.currentTarget.value as TextEncodingName })}
          data={TEXT_ENCODINGS.map((encoding) => ({ value: encoding, label: ENCODING_LABELS[encoding] }))}
        />
      )}
    </Stack>
  );
  return doubtful ? (
    <Alert color="yellow" styles={WARNING_STYLES} title="Check how the file was read" role="status" aria-label="How the file was read">
      {body}
    </Alert>
  ) : (
    <div role="status" aria-label="How the file was read">
      {body}
    </div>
  );
}
