import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastProvider } from '../../../../client/components/Toaster.js';
import '../../../../client/styles/index.css';
import './panel.css';

/** Renders one of the extension's pages with the site's design tokens (both colour modes) and toasts. */
export function mount(page: ReactNode): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ToastProvider>{page}</ToastProvider>
    </StrictMode>,
  );
}
