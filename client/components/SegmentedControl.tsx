import { type ReactNode, useId } from 'react';
import './SegmentedControl.css';

export interface SegmentedOption<T extends string> {
  value: T;
  /** The option's name. With an icon and `iconOnly`, it is read by screen readers and shown as a tooltip. */
  label: string;
  icon?: ReactNode;
}

interface Props<T extends string> {
  /** What is being chosen ("Colour mode", "Date range"): the group's accessible name. */
  label: string;
  /** Show the label above the options (forms) rather than only to assistive technology (toolbars). */
  showLabel?: boolean;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Icons only, each option's label in a tooltip: the compact colour-mode switch. */
  iconOnly?: boolean;
  name?: string;
  className?: string;
}

/**
 * One choice out of a few, shown side by side. Native radio buttons in a fieldset: the browser
 * gives the group one tab stop, arrow keys that move and select, and a checked state that screen
 * readers announce; the pills are only their styling. Options never wrap inside themselves.
 */
export function SegmentedControl<T extends string>({
  label,
  showLabel = false,
  options,
  value,
  onChange,
  iconOnly = false,
  name,
  className,
}: Props<T>) {
  const generated = useId();
  const group = name ?? generated;
  return (
    <fieldset className={['segmented', iconOnly ? 'segmented--icons' : '', className ?? ''].filter(Boolean).join(' ')}>
      <legend className={showLabel ? 'segmented__legend' : 'visually-hidden'}>{label}</legend>
      <div className="segmented__options">
        {options.map((option) => (
          <label key={option.value} className="segmented__option" title={iconOnly ? option.label : undefined}>
            <input
              type="radio"
              className="segmented__input"
              name={group}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.icon}
            {iconOnly ? <span className="visually-hidden">{option.label}</span> : option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
