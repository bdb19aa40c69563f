import { announcementVersion } from './site-settings.service.js';
import { DEFAULT_ANNOUNCEMENT } from './site-settings.defaults.js';

describe('announcementVersion', () => {
  const base = { ...DEFAULT_ANNOUNCEMENT, enabled: true, text: 'Maintenance on *Sunday*' };

  it('is 16 hex digits, the same for the same announcement', () => {
    expect(announcementVersion(base)).toMatch(/^[a-f0-9]{16}$/);
    expect(announcementVersion({ ...base })).toBe(announcementVersion(base));
  });

  it('changes with what a person reads (text, tone, link), so a dismissed banner comes back for a new one', () => {
    const versions = new Set([
      announcementVersion(base),
      announcementVersion({ ...base, text: 'Maintenance on *Monday*' }),
      announcementVersion({ ...base, tone: 'warning' }),
      announcementVersion({ ...base, linkLabel: 'Status', linkUrl: '/status' }),
      announcementVersion({ ...base, linkLabel: 'Status', linkUrl: '/elsewhere' }),
    ]);
    expect(versions.size).toBe(5);
  });

  it('does not change when the banner is only switched off and on again', () => {
    expect(announcementVersion({ ...base, enabled: false })).toBe(announcementVersion(base));
  });
});
