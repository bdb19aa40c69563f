import { useSession } from '../state/desktop-context.js';
import type { SourceView } from '../state/session.js';

/** What needs doing before events can flow, one line per source: the states a person can act on. */
function banner(source: SourceView): { tone: 'error' | 'info'; text: string; testid: string } | null {
  switch (source.state) {
    case 'unauthorized':
      return {
        tone: 'info',
        testid: 'banner-unauthorized',
        text:
          source.kind === 'android'
            ? `${source.label} is unauthorised: accept “Allow USB debugging?” on the phone. Watching starts by itself.`
            : `${source.label} does not trust this computer: unlock it and tap “Trust”. Watching starts by itself.`,
      };
    case 'unplugged':
      return {
        tone: 'info',
        testid: 'banner-unplugged',
        text: `${source.label} was unplugged mid-stream. What it logged is kept; plug it in again and the stream carries on where it stopped.`,
      };
    case 'not-connected':
      return { tone: 'info', testid: 'banner-not-connected', text: `${source.label}: ${source.message ?? 'not connected.'}` };
    case 'tool-missing':
    case 'failed':
      return { tone: 'error', testid: `banner-${source.state}`, text: `${source.label}: ${source.message ?? 'the tool failed.'}` };
  }
  if (source.kind === 'android' && source.open && source.debugPackage === null) {
    return {
      tone: 'info',
      testid: 'banner-debug-off',
      text: `Firebase debug mode is not on for ${source.label}: events reach GA4 in batches and verbose logging may be off. Turn it on for your app in the device list.`,
    };
  }
  return null;
}

export function SourceBanners() {
  const { sources, viewing, error } = useSession();
  if (viewing.kind === 'recording') {
    return (
      <div className="alert alert--info desk-banner" role="status" data-testid="banner-recording">
        Recording of {new Date(viewing.meta.startedAt).toLocaleString('en-GB')}:{' '}
        {viewing.meta.sources.map((source) => source.label).join(', ') || 'no source'}.
      </div>
    );
  }
  const banners = sources.map((source) => ({ id: source.id, ...banner(source) })).filter((each) => each.text);
  return (
    <div className="desk-banners">
      {error ? (
        <div className="alert alert--error desk-banner" role="alert">
          {error}
        </div>
      ) : null}
      {banners.map((each) => (
        <div
          key={each.id}
          className={`alert alert--${each.tone} desk-banner`}
          role={each.tone === 'error' ? 'alert' : 'status'}
          data-testid={each.testid}
        >
          {each.text}
        </div>
      ))}
    </div>
  );
}
