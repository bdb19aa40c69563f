import { RELEASE_FORMATS, type ReleaseFormat, type ReleasePlatform } from '../api/releases.js';

/** The format a build's file name says (`…_amd64.deb` → deb), or null for another kind of file. */
export function formatOfFilename(filename: string): ReleaseFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return (RELEASE_FORMATS as readonly string[]).includes(extension ?? '') ? (extension as ReleaseFormat) : null;
}

/** A release's format: as stored, or (a release stored before formats) as its file name says. */
export function formatOf(release: { format?: ReleaseFormat | null; file: { filename: string } }): ReleaseFormat | null {
  return release.format ?? formatOfFilename(release.file.filename);
}

/**
 * The format an app gets when its update check does not name one (apps from before formats): the
 * usual package of each platform first. Debian's .deb before .rpm on Linux, as Tauri's own updater
 * and most download pages order them.
 */
export const USUAL_FORMATS: Readonly<Record<ReleasePlatform, readonly ReleaseFormat[]>> = {
  linux: ['deb', 'rpm', 'zip'],
  macos: ['dmg', 'zip'],
  windows: ['msi', 'exe', 'zip'],
  chrome: ['zip'],
  edge: ['zip'],
  firefox: ['xpi', 'zip'],
};

/** How much a platform prefers a format when none is asked for (lower first; unknown formats last). */
export function formatRank(platform: ReleasePlatform, format: ReleaseFormat | null): number {
  const index = format === null ? -1 : USUAL_FORMATS[platform].indexOf(format);
  return index === -1 ? USUAL_FORMATS[platform].length : index;
}
