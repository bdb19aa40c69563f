import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastProvider } from '../../../client/components/Toaster.js';
import '../../../client/styles/index.css';
import { App } from './App.js';
import { backend } from './backend.js';
import { DesktopProvider } from './state/desktop-context.js';
import './desktop.css';

const root = createRoot(document.getElementById('root')!);

async function boot() {
  try {
    const [info, settings] = await Promise.all([backend.appInfo(), backend.getSettings()]);
    root.render(
      <StrictMode>
        <ToastProvider>
          <DesktopProvider info={info} initialSettings={settings}>
            <App />
          </DesktopProvider>
        </ToastProvider>
      </StrictMode>,
    );
  } catch (error) {
    root.render(
      <main className="desk-page">
        <h1>Hitscope for Apps could not start</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
      </main>,
    );
  }
}

void boot();
