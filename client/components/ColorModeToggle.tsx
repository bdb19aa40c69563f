import { COLOR_MODES, type ColorMode } from '../../lib/client-constants.js';
import { api } from '../app/api-client.js';
import { useColorMode } from '../app/color-mode.js';
import { useMe } from '../app/data-source.js';
import { Icon, type IconName } from './Icon.js';
import { SegmentedControl } from './SegmentedControl.js';

const LABELS: Record<ColorMode, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ColorMode, IconName> = { system: 'monitor', light: 'sun', dark: 'moon' };
const OPTIONS = COLOR_MODES.map((mode) => ({ value: mode, label: LABELS[mode], icon: <Icon name={ICONS[mode]} size={16} /> }));

export function ColorModeToggle() {
  const { mode, setMode } = useColorMode();
  const me = useMe();
  const choose = (option: ColorMode) => {
    setMode(option);
    // Signed in, the choice follows the account to other devices; the cookie alone covers this one.
    if (me) void api('/api/profile', { method: 'PATCH', body: { colorMode: option } }).catch(() => undefined);
  };
  return <SegmentedControl label="Colour mode" name="color-mode" options={OPTIONS} value={mode} onChange={choose} iconOnly />;
}
