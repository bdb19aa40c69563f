import { COLOR_MODES, type ColorMode } from '../../lib/client-constants.js';
import { api } from '../app/api-client.js';
import { useColorMode } from '../app/color-mode.js';
import { useMe } from '../app/data-source.js';
import { Icon, type IconName } from './Icon.js';
import './SegmentedControl.css';

const LABELS: Record<ColorMode, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ColorMode, IconName> = { system: 'monitor', light: 'sun', dark: 'moon' };

export function ColorModeToggle() {
  const { mode, setMode } = useColorMode();
  const me = useMe();
  const choose = (option: ColorMode) => {
    setMode(option);
    // Signed in, the choice follows the account to other devices; the cookie alone covers this one.
    if (me) void api('/api/profile', { method: 'PATCH', body: { colorMode: option } }).catch(() => undefined);
  };
  return (
    <div className="segmented" role="radiogroup" aria-label="Colour mode">
      {COLOR_MODES.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={mode === option}
          className="segmented__option"
          title={`${LABELS[option]} colour mode`}
          onClick={() => choose(option)}
        >
          <Icon name={ICONS[option]} size={16} />
          <span className="visually-hidden">{LABELS[option]}</span>
        </button>
      ))}
    </div>
  );
}
