import { useId } from 'react';

/** A checkbox with a bold label and a line saying what the current choice means. */
export function SettingSwitch({
  label,
  checked,
  onChange,
  description,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description: string;
}) {
  const id = useId();
  return (
    <div className="checkbox site-settings__switch">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div>
        <label htmlFor={id} className="site-settings__switch-label">
          {label}
        </label>
        <span id={`${id}-hint`} className="muted site-settings__switch-hint">
          {description}
        </span>
      </div>
    </div>
  );
}
