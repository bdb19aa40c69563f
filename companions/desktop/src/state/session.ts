import type { AppLogPlatform, AppLogSummary, AppLogUserProperty } from '../../../../lib/tools/applog/types.js';
import { backend, subscribe } from '../backend.js';
import type { DesktopEntry, FromWorker, SourceUpdate, ToWorker } from '../decode/protocol.js';
import type { BackendEvent, DeviceList, SessionMeta, SourceKind, SourceSpec, SourceState } from '../types.js';

/** One source of the session on screen: a device being watched, a file, or a recorded source. */
export interface SourceView {
  id: string;
  label: string;
  kind: SourceKind;
  platform: AppLogPlatform | null;
  /** The device list's id (`android:<serial>`), for a device. */
  deviceId: string | null;
  serial: string | null;
  state: SourceState;
  message: string | null;
  /** Android: the package debug mode is on for; null when off; undefined before the device said. */
  debugPackage: string | null | undefined;
  summary: AppLogSummary | null;
  lines: { total: number; firebase: number; unrecognised: number } | null;
  userProperties: AppLogUserProperty[];
  /** Still decoding (lines may come). */
  open: boolean;
}

export type Viewing = { kind: 'live' } | { kind: 'recording'; meta: SessionMeta };

export interface Snapshot {
  /** Changes on every change: the view's memo key. */
  version: number;
  devices: DeviceList | null;
  /** The session being recorded (live) or shown (recording). */
  sessionId: string | null;
  viewing: Viewing;
  sources: SourceView[];
  /** The merged stream, by `seq` (first appearance). Mutated in place; `version` says when. */
  entries: DesktopEntry[];
  /** The last problem the decoder or the back end reported. */
  error: string | null;
}

const FINAL: ReadonlySet<SourceState> = new Set(['stopped', 'ended', 'tool-missing', 'failed']);
const SUMMARY_EVERY_MS = 5000;
/** Events of a source the window does not know yet (its start is still being answered), kept briefly. */
const PENDING_MAX = 2000;

function deviceOf(spec: SourceSpec): { deviceId: string | null; serial: string | null } {
  switch (spec.kind) {
    case 'android':
      return { deviceId: `android:${spec.serial}`, serial: spec.serial };
    case 'ios':
      return { deviceId: `ios:${spec.udid}`, serial: spec.udid };
    case 'simulator':
      return { deviceId: `simulator:${spec.udid}`, serial: spec.udid };
    case 'file':
      return { deviceId: null, serial: null };
  }
}

/**
 * The session on screen, outside React: the back end's events, the decoding worker and the merged
 * stream. Views read it with useSyncExternalStore; changes are announced at most once a frame.
 */
export class SessionStore {
  private snapshot: Snapshot = {
    version: 0,
    devices: null,
    sessionId: null,
    viewing: { kind: 'live' },
    sources: [],
    entries: [],
    error: null,
  };
  private readonly listeners = new Set<() => void>();
  private readonly worker: Worker;
  private readonly pending = new Map<string, BackendEvent[]>();
  /** The latest pid names of each source, sent again to a decoder started afresh (a new session). */
  private readonly apps = new Map<string, Record<string, string>>();
  private announced = false;
  private summaryTimer: ReturnType<typeof setInterval> | null = null;
  private lastSavedSummary = '';

  constructor() {
    this.worker = new Worker(new URL('../decode/decoder.worker.ts', import.meta.url), { type: 'module', name: 'decoder' });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.fromWorker(event.data);
    this.worker.onerror = () => this.change({ error: 'The decoder stopped unexpectedly.' });
  }

  /** Connects to the back end (once). */
  async connect(): Promise<void> {
    await subscribe((event) => this.fromBackend(event));
    this.summaryTimer ??= setInterval(() => void this.saveSummary(), SUMMARY_EVERY_MS);
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private change(patch: Partial<Snapshot>) {
    this.snapshot = { ...this.snapshot, ...patch, version: this.snapshot.version + 1 };
    if (this.announced) return;
    this.announced = true;
    requestAnimationFrame(() => {
      this.announced = false;
      for (const listener of this.listeners) listener();
    });
  }

  private send(message: ToWorker) {
    this.worker.postMessage(message);
  }

  private updateSource(id: string, patch: Partial<SourceView>) {
    this.change({ sources: this.snapshot.sources.map((source) => (source.id === id ? { ...source, ...patch } : source)) });
  }

  private register(view: SourceView) {
    this.send({ type: 'add', source: view.id, platform: view.platform ?? 'auto' });
    this.change({ sources: [...this.snapshot.sources, view] });
    const waiting = this.pending.get(view.id);
    this.pending.delete(view.id);
    for (const event of waiting ?? []) this.fromBackend(event);
  }

  private fromBackend(event: BackendEvent) {
    if (event.type === 'devices') return this.change({ devices: event.list });
    const source = this.snapshot.sources.find((each) => each.id === event.source);
    if (!source) {
      const list = this.pending.get(event.source) ?? [];
      if (list.length < PENDING_MAX) list.push(event);
      this.pending.set(event.source, list);
      return;
    }
    switch (event.type) {
      case 'lines':
        if (source.open) this.send({ type: 'lines', source: source.id, lines: event.lines });
        return;
      case 'apps':
        this.apps.set(source.id, event.apps);
        this.send({ type: 'apps', source: source.id, apps: event.apps });
        return;
      case 'debugMode':
        return this.updateSource(source.id, { debugPackage: event.package });
      case 'state': {
        const final = FINAL.has(event.state);
        if (final && source.open) this.send({ type: 'end', source: source.id });
        return this.updateSource(source.id, { state: event.state, message: event.message, open: source.open && !final });
      }
    }
  }

  private fromWorker(message: FromWorker) {
    if (message.type === 'error') return this.change({ error: `Decoding failed: ${message.message}` });
    this.apply(message);
  }

  private apply(update: SourceUpdate) {
    const { entries } = this.snapshot;
    for (const entry of update.entries) entries[entry.seq] = entry;
    const source = this.snapshot.sources.find((each) => each.id === update.source);
    if (!source) return;
    this.updateSource(update.source, {
      platform: update.platform,
      summary: update.summary,
      lines: update.lines,
      ...(update.userProperties ? { userProperties: update.userProperties } : {}),
    });
  }

  /** Watches a device or reads a file into the live session. */
  async start(spec: SourceSpec): Promise<void> {
    if (this.snapshot.viewing.kind === 'recording') this.clearView({ kind: 'live' }, null);
    const started = await backend.startSource(spec);
    this.register({
      id: started.id,
      label: started.label,
      kind: started.kind,
      platform: started.platform,
      ...deviceOf(spec),
      state: 'starting',
      message: null,
      debugPackage: undefined,
      summary: null,
      lines: null,
      userProperties: [],
      open: true,
    });
    this.change({ sessionId: started.sessionId });
  }

  async stop(id: string): Promise<void> {
    await backend.stopSource(id);
  }

  /** Sets Firebase debug mode of a device (null turns it off). */
  async setDebugMode(serial: string, pkg: string | null): Promise<void> {
    await backend.setDebugMode(serial, pkg);
    for (const source of this.snapshot.sources) if (source.serial === serial) this.updateSource(source.id, { debugPackage: pkg });
  }

  private clearView(viewing: Viewing, sessionId: string | null, keep: SourceView[] = []) {
    this.send({ type: 'reset' });
    this.pending.clear();
    this.snapshot.entries.length = 0;
    const sources = keep.map((source) => ({ ...source, summary: null, lines: null, userProperties: [] }));
    for (const source of sources) {
      this.send({ type: 'add', source: source.id, platform: source.platform ?? 'auto' });
      const apps = this.apps.get(source.id);
      if (apps) this.send({ type: 'apps', source: source.id, apps });
    }
    this.change({ viewing, sessionId, sources, entries: this.snapshot.entries, error: null });
  }

  /** Clears the stream: what follows is a new recording; devices keep streaming into it. */
  async newSession(): Promise<void> {
    await this.saveSummary();
    const id = await backend.newSession();
    const live =
      this.snapshot.viewing.kind === 'live' ? this.snapshot.sources.filter((source) => source.open && source.kind !== 'file') : [];
    this.clearView({ kind: 'live' }, id, live);
  }

  /** Shows a recording; devices being watched stop (their session is a recording of its own). */
  async openRecording(id: string): Promise<SessionMeta> {
    await this.saveSummary();
    // Cleared first: the recording's first lines can arrive before the back end's answer does; they
    // wait in `pending` until their source is registered below.
    this.clearView({ kind: 'live' }, null);
    const meta = await backend.openRecording(id);
    this.change({ viewing: { kind: 'recording', meta }, sessionId: meta.id });
    for (const recorded of meta.sources) {
      const spec: SourceSpec =
        recorded.kind === 'file'
          ? { kind: 'file', path: recorded.address }
          : recorded.kind === 'android'
            ? { kind: 'android', serial: recorded.address, name: recorded.label }
            : { kind: recorded.kind, udid: recorded.address, name: recorded.label };
      this.register({
        id: recorded.id,
        label: recorded.label,
        kind: recorded.kind,
        platform: recorded.platform,
        ...deviceOf(spec),
        state: 'starting',
        message: null,
        debugPackage: undefined,
        summary: null,
        lines: null,
        userProperties: [],
        open: true,
      });
    }
    // What is left came from the sources that were just stopped.
    this.pending.clear();
    return meta;
  }

  /** Back to an empty live session after a recording. */
  closeRecording() {
    this.clearView({ kind: 'live' }, null);
  }

  /** Saves the session's counts beside its recording (for the list of recordings). */
  private async saveSummary() {
    const { sessionId, viewing, sources } = this.snapshot;
    if (!sessionId || viewing.kind !== 'live' || sources.length === 0) return;
    const events = sources.reduce((sum, source) => sum + (source.summary?.events ?? 0), 0);
    const issues = sources.reduce((sum, source) => sum + (source.summary?.issues ?? 0), 0);
    const key = `${sessionId}:${events}:${issues}`;
    if (key === this.lastSavedSummary) return;
    this.lastSavedSummary = key;
    await backend.saveSummary(sessionId, { events, issues }).catch(() => undefined);
  }
}
