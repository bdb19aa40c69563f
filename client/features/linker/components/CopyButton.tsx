import { useToast } from '../../../components/Toaster.js';
import '../linker.css';

/** Copies `value` to the clipboard and confirms with a toast; `label` names what is copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast(`Copied ${label}.`, 'success');
    } catch {
      toast('Could not copy: the browser refused access to the clipboard. Select the text and copy it instead.', 'error');
    }
  };
  return (
    <button type="button" className="button button--small linker-copy" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      Copy
    </button>
  );
}
