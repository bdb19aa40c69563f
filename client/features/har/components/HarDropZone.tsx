import { type DragEvent, useId, useRef, useState } from 'react';
import { Icon } from '../../../components/Icon.js';
import '../har.css';

/** Where a HAR file is chosen: drag and drop, or the file picker button (keyboard accessible). */
export function HarDropZone({ onFile, compact = false }: { onFile: (file: File) => void; compact?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <div
      className={`har-drop${over ? ' har-drop--over' : ''}${compact ? ' har-drop--compact' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="har-drop-zone"
    >
      {compact ? null : (
        <span className="icon-chip">
          <Icon name="download" />
        </span>
      )}
      <div className="har-drop__text">
        {compact ? null : <h2>Drop a HAR file here</h2>}
        <p id={hintId} className="muted">
          Export it from the Network panel of your browser's devtools ("Save all as HAR"). The file is analysed in this tab and never
          uploaded.
        </p>
      </div>
      <button
        type="button"
        className={`button ${compact ? 'button--small' : 'button--primary'}`}
        onClick={() => input.current?.click()}
        aria-describedby={hintId}
      >
        {compact ? 'Analyse another file' : 'Choose a HAR file'}
      </button>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept=".har,application/json,.json"
        tabIndex={-1}
        aria-label="HAR file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </div>
  );
}
