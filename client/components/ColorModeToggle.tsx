import { COLOR_MODES, type ColorMode } from '../../lib/client-constants.js';
import { useColorMode } from '../lib/color-mode.js';
import { Icon, type IconName } from './Icon.js';

const LABELS: Record<ColorMode, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ColorMode, IconName> = { system: 'monitor', light: 'sun', dark: 'moon' };

export function ColorModeToggle() {
  const { mode, setMode } = useColorMode();
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
          onClick={() => setMode(option)}
        >
          <Icon name={ICONS[option]} size={16} />
          <span className="visually-hidden">{LABELS[option]}</span>
        </button>
      ))}
    </div>
  );
}
