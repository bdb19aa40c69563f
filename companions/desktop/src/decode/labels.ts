import { isFirebaseTag, parseLogcatLine } from '../../../../lib/tools/applog/android.js';

/*
 * Which app logged a line. Android's logcat line carries the process id (its name comes from the
 * back end, which asks the device once per pid); iOS lines carry the process name itself:
 *   idevicesyslog:    "May  1 10:00:00 ShopApp(FirebaseAnalytics)[5123] <Notice>: …"
 *   log stream:       "2024-05-01 10:00:00.123 Df ShopApp[5123:2014] …" (--style compact)
 *   Xcode / Console:  "2024-05-01 10:00:00.201234+0200 ShopApp[5123:201460] …"
 */
const IDEVICESYSLOG = /^[A-Z][a-z]{2}\s+\d{1,2} \d\d:\d\d:\d\d (?:\S+ )?([^\s([]+)(?:\([^)]*\))?\[\d+\]/;
const COMPACT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \w{1,3}\s+([^\s[]+)\[\d+:/;
const CONSOLE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d{4} ([^\s[]+)\[\d+:\d+\]/;

/** An app label for one raw line: `pid:<n>` for Android (resolved later), the process name for iOS, null for none. */
export function lineLabel(line: string, platform: 'android' | 'ios' | null): string | null {
  if (platform !== 'ios' && line.includes('FA')) {
    const parsed = parseLogcatLine(line);
    if (parsed && isFirebaseTag(parsed.tag) && parsed.pid) return `pid:${parsed.pid}`;
    if (platform === 'android') return null;
  }
  if (platform !== 'android' && line.includes('Analytics]')) {
    const match = IDEVICESYSLOG.exec(line) ?? COMPACT.exec(line) ?? CONSOLE.exec(line);
    if (match) return match[1];
  }
  return null;
}

/** The app's name for a label: a pid's process name when known (Play services' processes named as such). */
export function appName(label: string | null, apps: Record<string, string>): string | null {
  if (!label) return null;
  if (!label.startsWith('pid:')) return label;
  const pid = label.slice(4);
  const name = apps[pid];
  if (!name) return `pid ${pid}`;
  return name.startsWith('com.google.android.gms') ? `Google Play services (${name})` : name;
}
