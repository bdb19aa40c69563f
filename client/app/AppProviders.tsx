import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ColorMode } from '../../lib/client-constants.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { ColorModeProvider } from './color-mode.js';
import { DataSourceContext } from './data-source.js';
import { type Preloader, PreloaderContext } from './preload.js';
import { ToastProvider } from '../components/Toaster.js';

interface Props {
  queryClient: QueryClient;
  data: DataSource;
  colorMode: ColorMode;
  preloader?: Preloader;
  children: ReactNode;
}

/** Everything the app needs around the router, identical on the server and in the browser. */
export function AppProviders({ queryClient, data, colorMode, preloader, children }: Props) {
  return (
    <QueryClientProvider client={queryClient}>
      <DataSourceContext.Provider value={data}>
        <PreloaderContext.Provider value={preloader ?? null}>
          <ColorModeProvider initial={colorMode}>
            <ToastProvider>{children}</ToastProvider>
          </ColorModeProvider>
        </PreloaderContext.Provider>
      </DataSourceContext.Provider>
    </QueryClientProvider>
  );
}
