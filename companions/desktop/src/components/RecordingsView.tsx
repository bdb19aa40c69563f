import { useCallback, useEffect, useState } from 'react';
import { Dialog } from '../../../../client/components/Dialog.js';
import { useToast } from '../../../../client/components/Toaster.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { backend } from '../backend.js';
import { useDesktop, useSession } from '../state/desktop-context.js';
import type { SessionMeta } from '../types.js';
import { formatDateTime, formatDuration } from './format.js';

/**
 * Every session is recorded as it happens (src-tauri/src/recordings.rs); here they are listed and
 * reopened through the same decoder. The free tier reopens the latest; a licence, all of them.
 */
export function RecordingsView({ onOpened }: { onOpened: () => void }) {
  const { store, licence } = useDesktop();
  const session = useSession();
  const toast = useToast();
  const [list, setList] = useState<SessionMeta[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SessionMeta | null>(null);

  const load = useCallback(() => {
    backend
      .recordings()
      .then((recordings) => {
        setList(recordings);
        setFailed(null);
      })
      .catch((error: Error) => setFailed(error.message));
  }, []);
  useEffect(load, [load, session.sessionId]);

  const live = session.viewing.kind === 'live' ? session.sources.filter((source) => source.open).length : 0;

  const openOne = async (meta: SessionMeta) => {
    try {
      await store.openRecording(meta.id);
      onOpened();
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  };

  if (failed) {
    return (
      <div className="alert alert--error" role="alert">
        Could not read the recordings: {failed}
      </div>
    );
  }
  if (!list) return <p className="muted">Reading the recordings…</p>;
  return (
    <section className="desk-page" aria-labelledby="recordings-heading">
      <h1 id="recordings-heading">Recordings</h1>
      <p className="muted">
        Every session is kept on this computer as it happens (the raw log of each device), and reopens through the same decoder.
        {live
          ? ` Opening one stops watching the ${live} source${live === 1 ? '' : 's'} of the current session, which is kept as a recording too.`
          : ''}
      </p>
      {list.length === 0 ? (
        <div className="empty-state" data-testid="no-recordings">
          <p>No recording yet: watch a device or open a log file, and the session is recorded.</p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table desk-recordings" data-testid="recordings">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Length</th>
                <th scope="col">Sources</th>
                <th scope="col">Events</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((meta, index) => {
                const current = meta.id === session.sessionId;
                const allowed = licence.paid || index === 0;
                const bytes = meta.sources.reduce((sum, source) => sum + source.bytes, 0);
                return (
                  <tr key={meta.id} data-testid="recording" data-id={meta.id}>
                    <th scope="row">
                      {formatDateTime(meta.startedAt)}
                      {current ? (
                        <span className="badge badge--accent desk-current">
                          {session.viewing.kind === 'live' ? 'Recording now' : 'Shown'}
                        </span>
                      ) : null}
                    </th>
                    <td>{formatDuration(meta.updatedAt - meta.startedAt)}</td>
                    <td>{meta.sources.map((source) => source.label).join(', ') || <span className="muted">none</span>}</td>
                    <td>
                      {meta.summary ? (
                        <>
                          {meta.summary.events} <span className="muted">({meta.summary.issues} issues)</span>
                        </>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td>{formatBytes(bytes)}</td>
                    <td className="desk-recordings__actions">
                      <button
                        type="button"
                        className="button button--small button--primary"
                        disabled={!allowed || (current && session.viewing.kind === 'recording')}
                        title={allowed ? undefined : 'Reopening older recordings needs a licence'}
                        onClick={() => void openOne(meta)}
                      >
                        Open
                      </button>
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        disabled={current && session.viewing.kind === 'live'}
                        onClick={() => setDeleting(meta)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {!licence.paid && list.length > 1 ? (
        <p className="muted">The free tier reopens the latest recording; a licence reopens every one.</p>
      ) : null}
      {deleting ? (
        <Dialog title="Delete this recording?" placement="centered" onClose={() => setDeleting(null)}>
          <p>
            The recording of {formatDateTime(deleting.startedAt)} ({deleting.sources.map((source) => source.label).join(', ')}) is removed
            from this computer. This cannot be undone.
          </p>
          <div className="desk-dialog-actions">
            <button type="button" className="button button--ghost" onClick={() => setDeleting(null)}>
              Keep it
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                const id = deleting.id;
                setDeleting(null);
                backend
                  .deleteRecording(id)
                  .then(() => {
                    toast('Recording deleted.', 'success');
                    load();
                  })
                  .catch((error: Error) => toast(error.message, 'error'));
              }}
            >
              Delete
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
