import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import '../admin-users.css';

interface Props {
  text: string;
  button: string;
  /** The action destroys something: the confirm button says so in the danger colour. */
  danger: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The question before an action, in the section whose button asked it; its confirm button takes the focus. */
export function ConfirmBox({ text, button, danger, busy, onConfirm, onCancel }: Props) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const textId = useId();
  useEffect(() => {
    confirmRef.current?.focus();
  }, []);
  // Escape backs out of the question first; the panel closes on the next one.
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Escape' || busy) return;
    event.stopPropagation();
    onCancel();
  };
  return (
    <div className="admin-users__confirm" role="group" aria-labelledby={textId}>
      <p id={textId}>{text}</p>
      <div className="admin-users__confirm-actions">
        <button
          ref={confirmRef}
          type="button"
          className={`button ${danger ? 'button--destructive' : 'button--primary'}`}
          disabled={busy}
          onClick={onConfirm}
          onKeyDown={onKeyDown}
        >
          {busy ? 'Working…' : button}
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={onCancel} onKeyDown={onKeyDown}>
          Cancel
        </button>
      </div>
    </div>
  );
}
