import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import './Toaster.css';

export type ToastTone = 'success' | 'error' | 'info';

export interface ToastOptions {
  /**
   * Toasts about the same thing share a key: a new one replaces the old, so "Redirect rules saved"
   * never stands beside the "Validation failed" of the attempt before.
   */
  key?: string;
}

interface Toast {
  id: number;
  key?: string;
  tone: ToastTone;
  message: string;
}

type ShowToast = (message: string, tone?: ToastTone, options?: ToastOptions) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  const show = useCallback<ShowToast>(
    (message, tone = 'info', options = {}) => {
      const id = nextId.current++;
      setToasts((list) => [
        ...list.filter((toast) => !options.key || toast.key !== options.key).slice(-3),
        { id, key: options.key, tone, message },
      ]);
      window.setTimeout(() => dismiss(id), tone === 'error' ? 8000 : 4000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toaster" role="region" aria-label="Notifications" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
            <span>{toast.message}</span>
            <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
