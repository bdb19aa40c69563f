import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { Icon } from '../../../components/Icon.js';
import { formatBytes, PLATFORM_LABELS } from '../format.js';
import type { PlatformChoice } from '../hooks/useAppLogAnalysis.js';
import '../applog.css';

interface Props {
  text: string;
  onTextChange: (text: string) => void;
  file: File | null;
  onFile: (file: File | null) => void;
  platform: PlatformChoice;
  onPlatformChange: (platform: PlatformChoice) => void;
  onAnalyse: () => void;
  busy: boolean;
}

const ACCEPT = '.txt,.log,text/plain';

/** Paste box, drop zone / file picker and the platform choice. */
export function AppLogSourceForm({ text, onTextChange, file, onFile, platform, onPlatformChange, onAnalyse, busy }: Props) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAnalyse();
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };

  return (
    <form className="applog-source card" onSubmit={submit} aria-label="Log to analyse">
      <div className="applog-source__inputs">
        <div className="field applog-source__paste">
          <label htmlFor={`${id}-text`}>Paste logcat or iOS console output</label>
          <textarea
            id={`${id}-text`}
            className="input applog-source__textarea"
            value={text}
            onChange={(event) => onTextChange(event.target.value)}
            placeholder={'05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): screen_view(_vs), Bundle[{…}]'}
            spellCheck={false}
            autoComplete="off"
            rows={9}
            disabled={busy || file !== null}
            aria-describedby={`${id}-privacy`}
          />
        </div>
        <div
          className={`applog-drop${dragging ? ' applog-drop--active' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          data-testid="applog-drop-zone"
        >
          <Icon name="download" size={28} className="applog-drop__icon" />
          {file ? (
            <>
              <p className="applog-drop__file">
                <strong>{file.name}</strong> <span className="muted">({formatBytes(file.size)})</span>
              </p>
              <button type="button" className="button button--small" onClick={() => onFile(null)} disabled={busy}>
                Remove file
              </button>
            </>
          ) : (
            <>
              <p>Drop a .txt or .log file here</p>
              <button type="button" className="button button--small" onClick={() => fileInput.current?.click()} disabled={busy}>
                Choose a file…
              </button>
            </>
          )}
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPT}
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Log file"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              if (chosen) onFile(chosen);
              event.target.value = '';
            }}
          />
        </div>
      </div>
      <div className="applog-source__actions">
        <div className="field applog-source__platform">
          <label htmlFor={`${id}-platform`}>Platform</label>
          <select
            id={`${id}-platform`}
            className="input"
            value={platform}
            onChange={(event) => onPlatformChange(event.target.value as PlatformChoice)}
          >
            <option value="auto">Auto-detect</option>
            <option value="android">{PLATFORM_LABELS.android}</option>
            <option value="ios">{PLATFORM_LABELS.ios}</option>
          </select>
        </div>
        <button type="submit" className="button button--primary" disabled={busy || (!file && !text.trim())}>
          Analyse
        </button>
        <p id={`${id}-privacy`} className="field__hint applog-source__privacy">
          Analysed in your browser: the log is never uploaded.
        </p>
      </div>
    </form>
  );
}
