import { buildExportDocument, type AppLogExportDocument } from '../../../../lib/tools/applog/export.js';
import { buildEntriesCsv } from '../../../../lib/tools/applog/csv.js';
import type { DesktopEntry } from '../decode/protocol.js';
import type { SourceView, Snapshot } from './session.js';

export interface SessionExport {
  format: 'hitscope.desktop-session';
  version: 1;
  generatedAt: string;
  sessionId: string | null;
  /** Each source as the web analyser exports a log (`hitscope.applog`), with its device and app labels. */
  sources: Array<{ id: string; label: string; kind: SourceView['kind']; document: AppLogExportDocument }>;
}

/** The whole session as JSON: every source's decoded stream, in the web analyser's export format. */
export function buildSessionExport(snapshot: Snapshot, generatedAt: string): SessionExport {
  return {
    format: 'hitscope.desktop-session',
    version: 1,
    generatedAt,
    sessionId: snapshot.sessionId,
    sources: snapshot.sources.map((source) => {
      const entries = snapshot.entries
        .filter((entry): entry is DesktopEntry => entry?.source === source.id)
        .sort((a, b) => a.index - b.index);
      const result = {
        platform: source.platform ?? 'android',
        totalLines: source.lines?.total ?? 0,
        relevantLines: source.lines?.firebase ?? 0,
        unrecognisedCount: source.lines?.unrecognised ?? 0,
        unrecognised: [],
        entries,
        userProperties: source.userProperties,
        summary: source.summary ?? {
          events: 0,
          screens: 0,
          userPropertyChanges: 0,
          uploads: 0,
          consentChanges: 0,
          errors: 0,
          distinctEventNames: 0,
          entriesWithIssues: 0,
          issues: 0,
        },
      };
      return {
        id: source.id,
        label: source.label,
        kind: source.kind,
        document: buildExportDocument(result, { generatedAt, source: source.label }),
      };
    }),
  };
}

/** The entries shown (filters applied) as CSV, with the device and app of each. */
export function buildStreamCsv(entries: DesktopEntry[], labels: ReadonlyMap<string, string>): string {
  return buildEntriesCsv(
    entries.map((entry) => ({ entry })),
    { header: ['device', 'app'], values: ({ entry }) => [labels.get(entry.source) ?? entry.source, entry.app ?? ''] },
  );
}

export function exportName(extension: 'json' | 'csv', generatedAt: string): string {
  return `hitscope-apps-${generatedAt.slice(0, 19).replace(/:/g, '-')}.${extension}`;
}
