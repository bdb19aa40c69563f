import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import '../linker.css';

export type LinkerTab = 'decode' | 'verify' | 'encode';

export const LINKER_TABS: { id: LinkerTab; label: string }[] = [
  { id: 'decode', label: 'Decode' },
  { id: 'verify', label: 'Verify' },
  { id: 'encode', label: 'Encode' },
];

/** The tab an arrow, Home or End key moves to from `index`, or -1 for any other key. */
function target(key: string, index: number): number {
  const last = LINKER_TABS.length - 1;
  if (key === 'ArrowRight') return index === last ? 0 : index + 1;
  if (key === 'ArrowLeft') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return -1;
}

/**
 * WAI-ARIA tabs with automatic activation and a roving tab index: only the active tab is in the
 * tab order, and each tab handles the arrow keys, Home and End itself (moving the focus and the
 * selection together); Tab moves into the panel.
 */
export function LinkerTabs({ active, onChange, children }: { active: LinkerTab; onChange: (tab: LinkerTab) => void; children: ReactNode }) {
  const buttons = useRef<Partial<Record<LinkerTab, HTMLButtonElement | null>>>({});
  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = target(event.key, index);
    if (next < 0) return;
    event.preventDefault();
    const tab = LINKER_TABS[next]!.id;
    onChange(tab);
    buttons.current[tab]?.focus();
  };
  return (
    <>
      <div className="linker-tabs" role="tablist" aria-label="Linker tools">
        {LINKER_TABS.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`linker-tab-${tab.id}`}
            aria-selected={tab.id === active}
            // Only the active panel is rendered, so only its tab may point at it.
            aria-controls={tab.id === active ? `linker-panel-${tab.id}` : undefined}
            tabIndex={tab.id === active ? 0 : -1}
            className="linker-tabs__tab"
            onClick={() => onChange(tab.id)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="linker-panel" role="tabpanel" id={`linker-panel-${active}`} aria-labelledby={`linker-tab-${active}`}>
        {children}
      </div>
    </>
  );
}
