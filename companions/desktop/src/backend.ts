import { Channel, invoke } from '@tauri-apps/api/core';
import type { AppInfo, BackendEvent, RecordedSource, SessionMeta, Settings, SiteResponse, SourceSpec, StartedSource } from './types.js';

/**
 * The window's only door to the back end (src-tauri/src/lib.rs): one typed function per command.
 * Errors arrive as the back end's message (a string) and are rethrown as Error.
 */
async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (error) {
    if (error instanceof Error) throw error;
    if (typeof error === 'string') throw new Error(error);
    if (error && typeof error === 'object' && 'message' in error) {
      throw Object.assign(new Error(String((error as { message: unknown }).message)), error);
    }
    throw new Error('The app’s back end did not answer.');
  }
}

/** Everything the back end reports, in order, through one channel. */
export function subscribe(onEvent: (event: BackendEvent) => void): Promise<void> {
  const channel = new Channel<BackendEvent>();
  channel.onmessage = onEvent;
  return call('subscribe', { channel });
}

export const backend = {
  appInfo: () => call<AppInfo>('app_info'),
  getSettings: () => call<Settings>('get_settings'),
  saveSettings: (settings: Settings) => call<Settings>('save_settings', { settings }),
  startSource: (spec: SourceSpec) => call<StartedSource>('start_source', { spec }),
  stopSource: (id: string) => call<void>('stop_source', { id }),
  newSession: () => call<string | null>('new_session'),
  listPackages: (serial: string) => call<string[]>('list_packages', { serial }),
  setDebugMode: (serial: string, pkg: string | null) => call<string | null>('set_debug_mode', { serial, package: pkg }),
  recordings: () => call<SessionMeta[]>('recordings_list'),
  deleteRecording: (id: string) => call<void>('recording_delete', { id }),
  openRecording: (id: string) => call<SessionMeta>('recording_open', { id }),
  saveSummary: (id: string, summary: { events: number; issues: number }) => call<void>('recording_summary', { id, summary }),
  exportSave: (path: string, contents: string) => call<void>('export_save', { path, contents }),
  siteRequest: (request: { method: 'GET' | 'POST'; path: string; body?: string; contentType?: string; authorization?: string }) =>
    call<SiteResponse>('site_request', { request }),
  machineId: () => call<{ id: string; source: string }>('machine_id'),
  licenceLoad: () => call<unknown>('licence_load'),
  licenceSave: (value: unknown) => call<void>('licence_save', { value }),
  licenceClear: () => call<void>('licence_clear'),
  updateDownload: (request: UpdateDownloadRequest) => call<VerifiedUpdate>('update_download', { request }),
  updateInstall: (path: string) => call<void>('update_install', { path }),
};

export interface UpdateDownloadRequest {
  url: string;
  version: string;
  sha256: string;
  size: number;
  signature: { kid: string; value: string };
  jwks: { keys: Array<{ kid: string; kty: string; crv: string; x: string }> };
  licenceKey: string | null;
  format: string;
}

export interface VerifiedUpdate {
  path: string;
  version: string;
  sha256: string;
  kid: string;
}

export type { RecordedSource };
