/** What the back end (src-tauri) sends and takes: the serde shapes of its commands and events. */

export type DevicePlatform = 'android' | 'ios';
export type DeviceKind = 'phone' | 'emulator' | 'simulator';
export type DeviceState = 'ready' | 'unauthorized' | 'offline' | 'no-permissions' | 'untrusted' | 'other';

export interface Device {
  id: string;
  platform: DevicePlatform;
  kind: DeviceKind;
  serial: string;
  name: string;
  state: DeviceState;
  detail: string | null;
}

export interface ToolStatus {
  path: string | null;
  error: string | null;
}

export interface DeviceList {
  devices: Device[];
  tools: { adb: ToolStatus; ios: ToolStatus; simctl: ToolStatus | null };
}

export type SourceState =
  'starting' | 'streaming' | 'unauthorized' | 'unplugged' | 'not-connected' | 'tool-missing' | 'failed' | 'ended' | 'stopped';

export type SourceSpec =
  | { kind: 'android'; serial: string; name: string }
  | { kind: 'ios'; udid: string; name: string }
  | { kind: 'simulator'; udid: string; name: string }
  | { kind: 'file'; path: string };

export type SourceKind = SourceSpec['kind'];

export interface StartedSource {
  id: string;
  sessionId: string;
  label: string;
  kind: SourceKind;
  platform: DevicePlatform | null;
}

export type BackendEvent =
  | { type: 'lines'; source: string; lines: string[] }
  | { type: 'state'; source: string; state: SourceState; message: string | null }
  | { type: 'apps'; source: string; apps: Record<string, string> }
  | { type: 'debugMode'; source: string; package: string | null }
  | { type: 'devices'; list: DeviceList };

export type ColorModeSetting = 'system' | 'light' | 'dark';

export interface Settings {
  siteUrl: string;
  adbPath: string | null;
  updateChannel: 'stable' | 'beta';
  colorMode: ColorModeSetting;
}

export interface RecordedSource {
  id: string;
  label: string;
  kind: SourceKind;
  platform: DevicePlatform | null;
  address: string;
  file: string;
  lines: number;
  bytes: number;
  startedAt: number;
  apps: Record<string, string>;
}

export interface SessionMeta {
  format: string;
  version: number;
  id: string;
  startedAt: number;
  updatedAt: number;
  sources: RecordedSource[];
  summary: { events: number; issues: number } | null;
}

export interface AppInfo {
  version: string;
  platform: 'linux' | 'macos' | 'windows';
  arch: 'x64' | 'arm64';
  format: string;
  dataDir: string;
  hostName: string;
}

export interface SiteResponse {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}
