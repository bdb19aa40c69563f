import type { ReactNode } from 'react';

/** What a licence adds, said where the feature would be, with the way to the licence settings. */
export function LockedFeature({ what, children }: { what: string; children: ReactNode }) {
  return (
    <div className="locked" role="note">
      <p className="locked__title">
        <strong>{what} comes with a Hitscope for Browsers licence.</strong>
      </p>
      <p className="locked__text">{children}</p>
      <button type="button" className="button button--small" onClick={() => void chrome.runtime.openOptionsPage()}>
        Enter a licence key
      </button>
    </div>
  );
}
