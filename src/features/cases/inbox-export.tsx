/**
 * Export the inbox's list as it is filtered (the platform's filter and the team's), newest first, as CSV
 * or an Excel workbook: links to the server's export, which reads every page itself and records the export.
 * Shown only to whoever may export on this site (the server refuses everyone else anyway).
 */
import { Button, Menu } from '@mantine/core';
import { INBOX_PATHS, inboxPath, type ExportFormat } from '@/contract/case-work';
import { inboxFilter, type InboxAddress } from './inbox-address';

/** The export's address for `inbox` in `format`: the list's sort, its filter and the team's filters. */
export function exportHref(site: string, inbox: InboxAddress, format: ExportFormat): string {
  const query = new URLSearchParams({ format, sort_type: 'created_at', sort_order: 'desc' });
  const filter = inboxFilter(inbox);
  if (filter) query.set('filter', JSON.stringify(filter));
  if (inbox.team.length > 0) query.set('team', inbox.team.join(','));
  return `${inboxPath(INBOX_PATHS.export, { site, form: inbox.form })}?${query.toString()}`;
}

export function InboxExport({ site, inbox }: { site: string; inbox: InboxAddress }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default">Export</Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={exportHref(site, inbox, 'csv')} download>
          Export CSV
        </Menu.Item>
        <Menu.Item component="a" href={exportHref(site, inbox, 'xlsx')} download>
          Export .xlsx
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
