import type { ComponentType } from 'react';

/** Every page module, code-split: one chunk per page. Keys look like `./pages/public/HomePage.tsx`. */
const pageModules = import.meta.glob<{ default: ComponentType }>('../pages/**/*Page.tsx');

export function pageLoader(page: string): () => Promise<{ default: ComponentType }> {
  const load = pageModules[`../pages/${page}.tsx`];
  if (!load) throw new Error(`Route table names page "${page}" but client/pages/${page}.tsx does not exist`);
  return load;
}

export interface RouteHandle {
  page: string | null;
}
