/**
 * What the free tier does and what a licence adds: one list for the Licence screen, the gates in the
 * window and docs/desktop-app.md. The free tier is the whole debugger for one source at a time; a
 * licence is for the work of a team that tests on several phones and keeps what it saw.
 */
export interface Feature {
  name: string;
  free: boolean;
  why: string;
}

export const FEATURES: readonly Feature[] = [
  {
    name: 'One device or log file at a time, decoded live',
    free: true,
    why: 'Every event the moment the SDK logs it, with parameters, items, user properties, screens, consent and sessions: DebugView without its delay.',
  },
  {
    name: 'GA4 / Firebase validation, filters, search, pause',
    free: true,
    why: 'Knowing what GA4 will drop, and why, is the point of a debugger; it is never locked.',
  },
  { name: 'One-click Firebase debug mode (Android)', free: true, why: 'Turned off again when the app quits.' },
  { name: 'Export JSON', free: true, why: 'What you saw is yours to keep and share.' },
  { name: 'The latest recording, reopened', free: true, why: 'A crash or a restart never loses the session you were in.' },
  {
    name: 'Several devices and files at once, each event labelled with its device and app',
    free: false,
    why: 'Comparing an Android and an iOS build, or a whole test lab, side by side.',
  },
  { name: 'Every recording kept and reopened', free: false, why: 'A history of sessions to go back to, per release or per bug.' },
  { name: 'Export CSV', free: false, why: 'For spreadsheets and test reports.' },
];
