import type { SourceState } from '../types.js';

export const SOURCE_STATE_LABELS: Record<SourceState, string> = {
  starting: 'Starting',
  streaming: 'Live',
  unauthorized: 'Waiting for the phone',
  unplugged: 'Unplugged',
  'not-connected': 'Not connected',
  'tool-missing': 'Tool missing',
  failed: 'Failed',
  ended: 'Read',
  stopped: 'Stopped',
};

/** `tone` of a state's badge: ok, wait or bad. */
export function stateTone(state: SourceState): 'ok' | 'wait' | 'bad' | 'idle' {
  if (state === 'streaming' || state === 'ended') return 'ok';
  if (state === 'failed' || state === 'tool-missing') return 'bad';
  if (state === 'stopped') return 'idle';
  return 'wait';
}

export function formatDateTime(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
