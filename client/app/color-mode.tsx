import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { COLOR_MODE_COOKIE, type ColorMode } from '../../lib/client-constants.js';

interface ColorModeValue {
  mode: ColorMode;
  setMode(mode: ColorMode): void;
}

const ColorModeContext = createContext<ColorModeValue>({ mode: 'system', setMode: () => undefined });

/** `data-theme` on <html>: explicit modes only; `system` leaves it to the CSS media query. */
export const themeAttribute = (mode: ColorMode): 'light' | 'dark' | null => (mode === 'system' ? null : mode);

/**
 * The mode lives in a cookie, so the server renders `<html data-theme>` right and the first paint
 * has the right colours (no flash); `system` is pure CSS (prefers-color-scheme).
 */
export function ColorModeProvider({ initial, children }: { initial: ColorMode; children: ReactNode }) {
  const [mode, setModeState] = useState<ColorMode>(initial);
  const setMode = useCallback((next: ColorMode) => {
    setModeState(next);
    document.cookie = `${COLOR_MODE_COOKIE}=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
    const root = document.documentElement;
    root.dataset.colorMode = next;
    const theme = themeAttribute(next);
    if (theme) root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, []);
  const value = useMemo(() => ({ mode, setMode }), [mode, setMode]);
  return <ColorModeContext.Provider value={value}>{children}</ColorModeContext.Provider>;
}

export const useColorMode = () => useContext(ColorModeContext);
