/** What the import page says above the import: this browser's copy, the server away, someone else running it, what the server said. */
import { Alert } from '@mantine/core';
import { runningSentence, type ImportRunner } from '@/contract/imports';
import { WARNING_STYLES } from './warning';

export function ImportAlerts(props: {
  storageFailed: boolean;
  offline: boolean;
  /** Shown: the copy's time is said; none: the server's imports cannot be listed. */
  work: { syncedAt?: number } | null;
  heldBy: ImportRunner | null;
  notice: string | null;
  loadError: string | null;
}) {
  const { work, heldBy, notice, loadError } = props;
  return (
    <>
      {props.storageFailed && (
        <Alert color="yellow" styles={WARNING_STYLES} title="This import cannot be kept in this browser">
          The browser refused to store it (storage full or disabled). It goes on while this page is open; download the report before closing
          it.
        </Alert>
      )}
      {props.offline && (
        <Alert color="yellow" styles={WARNING_STYLES} title="The server cannot be reached">
          {work
            ? `This is this browser’s copy of the import${work.syncedAt ? `, as of ${new Date(work.syncedAt).toLocaleTimeString()}` : ''}. Sending waits until the server is back; what you change here is kept and saved then.`
            : 'The imports kept on the server cannot be shown until it is back.'}
        </Alert>
      )}
      {heldBy && (
        <Alert color="blue" title="Someone else is running this import">
          {runningSentence(heldBy)} Its progress shows here as it happens; you can run it once they pause.
        </Alert>
      )}
      {notice && !heldBy && (
        <Alert color="yellow" styles={WARNING_STYLES} title="The server said">
          {notice}
        </Alert>
      )}
      {loadError && (
        <Alert color="red" title="The file could not be read">
          {loadError}
        </Alert>
      )}
    </>
  );
}
