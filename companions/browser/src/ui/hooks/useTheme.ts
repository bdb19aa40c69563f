import { useEffect } from 'react';
import type { ColorMode } from '../../../../../lib/client-constants.js';

/**
 * The colour mode: the setting, else the system's (the site's tokens react to prefers-color-scheme);
 * in DevTools, "system" follows DevTools' own theme, which a person may have set apart from the system's.
 */
export function useTheme(mode: ColorMode, devtools: boolean): void {
  useEffect(() => {
    const root = document.documentElement;
    const devtoolsTheme = devtools ? (chrome.devtools?.panels?.themeName === 'dark' ? 'dark' : 'light') : null;
    const theme = mode === 'system' ? devtoolsTheme : mode;
    if (theme) root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [mode, devtools]);
}
