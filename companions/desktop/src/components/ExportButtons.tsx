import { save } from '@tauri-apps/plugin-dialog';
import { useToast } from '../../../../client/components/Toaster.js';
import { backend } from '../backend.js';
import type { DesktopEntry } from '../decode/protocol.js';
import { useDesktop } from '../state/desktop-context.js';
import { buildSessionExport, buildStreamCsv, exportName } from '../state/export.js';

/** Export JSON (the whole session) and CSV (the rows shown), to a file chosen in the system's dialog. */
export function ExportButtons({ shown, paid }: { shown: DesktopEntry[]; paid: boolean }) {
  const { store } = useDesktop();
  const toast = useToast();

  const write = async (extension: 'json' | 'csv', build: (generatedAt: string) => string) => {
    const generatedAt = new Date().toISOString();
    const path = await save({
      defaultPath: exportName(extension, generatedAt),
      filters: [{ name: extension.toUpperCase(), extensions: [extension] }],
    });
    if (!path) return;
    try {
      await backend.exportSave(path, build(generatedAt));
      toast(`Exported ${path}`, 'success', { key: 'export' });
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error', { key: 'export' });
    }
  };

  const snapshot = store.getSnapshot();
  const empty = snapshot.entries.length === 0;
  const labels = new Map(snapshot.sources.map((source) => [source.id, source.label]));
  return (
    <>
      <button
        type="button"
        className="button button--small"
        disabled={empty}
        title="Every entry of every source, as the web analyser exports a log"
        onClick={() => void write('json', (generatedAt) => JSON.stringify(buildSessionExport(store.getSnapshot(), generatedAt), null, 2))}
      >
        Export JSON
      </button>
      <button
        type="button"
        className="button button--small"
        disabled={empty || !paid}
        title={paid ? 'The rows shown, filters applied' : 'CSV export needs a licence'}
        onClick={() => void write('csv', () => buildStreamCsv(shown, labels))}
      >
        Export CSV
      </button>
    </>
  );
}
