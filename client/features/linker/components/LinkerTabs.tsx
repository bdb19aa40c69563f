import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import '../linker.css';

export type LinkerTab = 'decode' | 'verify' | 'encode';

export const LINKER_TABS: { id: LinkerTab; label: string }[] = [
  { id: 'decode', label: 'Decode' },
  { id: 'verify', label: 'Verify' },
  { id: 'encode', label: 'Encode' },
];

/**
 * WAI-ARIA tabs with automatic activation: arrow keys, Home and End move between tabs, Tab moves
 * into the panel. Only the active tab is in the tab order.
 */
export function LinkerTabs({ active, onChange, children }: { active: LinkerTab; onChange: (tab: LinkerTab) => void; children: ReactNode }) {
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = LINKER_TABS.findIndex((tab) => tab.id === active);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % LINKER_TABS.length
        : event.key === 'ArrowLeft'
          ? (index + LINKER_TABS.length - 1) % LINKER_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? LINKER_TABS.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    const tab = LINKER_TABS[next]!.id;
    onChange(tab);
    buttons.current[tab]?.focus();
  };
  return (
    <>
      <div className="linker-tabs" role="tablist" aria-label="Linker tools" onKeyDown={move}>
        {LINKER_TABS.map((tab) => (
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
