import type { AppLogEntry, AppLogKind, AppLogParam, AppLogPlatform } from '../../../lib/tools/applog/types.js';

export const KIND_LABELS: Record<AppLogKind, string> = {
  event: 'Event',
  screen: 'Screen view',
  user_property: 'User property',
  consent: 'Consent',
  upload: 'Upload',
  error: 'Error',
  info: 'Info',
};

export const PLATFORM_LABELS: Record<AppLogPlatform, string> = {
  android: 'Android (logcat)',
  ios: 'iOS (console)',
};

/** Parameters the app set itself (the SDK's own carry a short name such as `_o`). */
export function customParams(entry: AppLogEntry): AppLogParam[] {
  return entry.params.filter((param) => param.shortName === null && !param.name.startsWith('_'));
}

export function displayValue(value: string | null): string {
  return value === null ? 'null' : value;
}

/** The few parameters worth a glance in the timeline row. */
export function keyParams(entry: AppLogEntry, max = 3): string {
  if (entry.kind === 'user_property') return `= ${displayValue(entry.value ?? null)}`;
  if (entry.kind === 'consent') return consentSummary(entry) || entry.message.split('\n')[0];
  if (entry.kind === 'error' || entry.kind === 'info' || entry.kind === 'upload') return entry.message.split('\n')[0];
  const params = customParams(entry);
  const shown = params.slice(0, max).map((param) => `${param.name}=${param.items ? '[…]' : displayValue(param.value)}`);
  if (params.length > max) shown.push(`+${params.length - max} more`);
  if (entry.items.length) shown.push(`${entry.items.length} item${entry.items.length === 1 ? '' : 's'}`);
  return shown.join(', ');
}

/** `ad_storage denied, analytics_storage denied` (the consent source is left out: it is in the details). */
export function consentSummary(entry: AppLogEntry): string {
  return entry.params
    .filter((param) => param.name !== 'source')
    .map((param) => `${param.name} ${displayValue(param.value)}`)
    .join(', ');
}

/** "1 line", "15,448 lines": a formatted count with its noun in the right number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/**
 * `15,448`, as en-GB writes it. Not Intl: the page's first NumberFormat costs tens of milliseconds of
 * ICU set-up, measured as a long task in the middle of an analysis' progress reports.
 */
export function formatCount(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A searchable lower-case text of an entry: names, values, message. */
export function searchText(entry: AppLogEntry): string {
  const parts = [entry.name, entry.shortName ?? '', entry.screen ?? '', entry.value ?? '', entry.message];
  for (const param of entry.params) parts.push(param.name, param.shortName ?? '', param.value ?? '');
  for (const item of entry.items) for (const param of item) parts.push(param.name, param.value ?? '');
  return parts.join('\u0000').toLowerCase();
}

/** The clock part of a logged time (`10:00:01.210`), for narrow columns; the full time goes in a title. */
export function clock(time: string | null): string {
  if (!time) return '—';
  const match = /\d\d:\d\d:\d\d(?:\.\d{1,3})?/.exec(time);
  return match ? match[0] : time;
}
