/**
 * The ⋯ menu of an attribute or option row: move up, move down, duplicate, remove.
 */
import { ActionIcon, Menu } from '@mantine/core';

export interface RowActionsProps {
  /** What the row is, for the button's name: "attribute 3", "option 2". */
  label: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onDuplicate: (index: number) => void;
  onRemove: (index: number) => void;
}

export function RowActions({ label, index, count, onMove, onDuplicate, onRemove }: RowActionsProps) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${label}`}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item disabled={index === 0} onClick={() => onMove(index, index - 1)}>
          Move up
        </Menu.Item>
        <Menu.Item disabled={index === count - 1} onClick={() => onMove(index, index + 1)}>
          Move down
        </Menu.Item>
        <Menu.Item onClick={() => onDuplicate(index)}>Duplicate</Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => onRemove(index)}>
          Remove
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
