import { useEffect, useState } from 'react';
import { loadSettings, onSettingsChanged, type Settings } from '../../shared/settings.js';

/** The settings, kept current when another page of the extension saves them. Null while loading. */
export function useSettings(): Settings | null {
  const [settings, setSettings] = useState<Settings | null>(null);
  useEffect(() => {
    void loadSettings().then(setSettings);
    return onSettingsChanged(setSettings);
  }, []);
  return settings;
}
