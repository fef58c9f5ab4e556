/**
 * The editor's keyboard shortcuts: Ctrl/⌘+Enter moves on (and creates, on Review) from anywhere in the
 * editor, and `?` lists every shortcut, as a spreadsheet-grade tool should say what its keys do.
 */
import { Button, Kbd, Modal, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const modKey = () => (isMac() ? '⌘' : 'Ctrl');

const SHORTCUTS: readonly { keys: string[][]; what: string }[] = [
  { keys: [['MOD', 'Enter']], what: 'Next step; on Review, create the product' },
  { keys: [['Enter']], what: 'In a field: next step (in a price grid: the cell below)' },
  { keys: [['?']], what: 'Show these shortcuts' },
  { keys: [['↑'], ['↓'], ['←'], ['→']], what: 'Price grid: move between cells (left and right at the edge of the text)' },
  { keys: [['Enter'], ['Shift', 'Enter']], what: 'Price grid: the cell below, the cell above' },
  { keys: [['Tab'], ['Shift', 'Tab']], what: 'Price grid: the next cell, the previous cell' },
  { keys: [['MOD', 'V']], what: 'Price grid: paste a block copied from a spreadsheet, filling from this cell' },
  { keys: [['Esc']], what: 'Price grid: leave the grid (to its Fill… menu)' },
];

/** Typing in a field: `?` is a character there, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/**
 * Listens on the whole page while the editor is open: `onAdvance` on Ctrl/⌘+Enter (before any field or
 * grid sees the key), the shortcut list on `?`.
 */
export function useEditorShortcuts(onAdvance: () => void, enabled = true) {
  const [helpOpen, setHelpOpen] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault();
        event.stopPropagation();
        onAdvance();
        return;
      }
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target)) {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [onAdvance, enabled]);
  return { helpOpen, openHelp: () => setHelpOpen(true), closeHelp: () => setHelpOpen(false) };
}

function Keys({ keys }: { keys: string[][] }) {
  return (
    <>
      {keys.map((combo, i) => (
        <span key={i}>
          {i > 0 && (
            <Text span size="xs" c="dimmed">
              {' '}
              or{' '}
            </Text>
          )}
          {combo.map((key, j) => (
            <span key={j}>
              {j > 0 && ' + '}
              <Kbd size="xs">{key === 'MOD' ? modKey() : key}</Kbd>
            </span>
          ))}
        </span>
      ))}
    </>
  );
}

export function ShortcutsButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="default" size="xs" onClick={onClick} aria-keyshortcuts="?">
      Shortcuts{' '}
      <Kbd size="xs" ml={6}>
        ?
      </Kbd>
    </Button>
  );
}

export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="lg" centered>
      <Table fz="sm" verticalSpacing={6}>
        <Table.Tbody>
          {SHORTCUTS.map((shortcut) => (
            <Table.Tr key={shortcut.what}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Keys keys={shortcut.keys} />
              </Table.Td>
              <Table.Td>{shortcut.what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
