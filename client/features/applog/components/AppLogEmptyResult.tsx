import { CaptureHelp } from './CopyCommand.js';
import { countOf, PLATFORM_LABELS } from '../format.js';
import type { AppLogPlatform } from '../../../../lib/tools/applog/types.js';
import '../applog.css';

/** The log had no Firebase Analytics line: say so and show how to turn debug logging on. */
export function AppLogEmptyResult({ totalLines, platform, source }: { totalLines: number; platform: AppLogPlatform; source: string }) {
  return (
    <section className="applog-empty card" role="status" aria-labelledby="applog-empty-title">
      <h3 id="applog-empty-title">No Firebase Analytics lines found</h3>
      <p>
        {source} has {countOf(totalLines, 'line')}, read as {PLATFORM_LABELS[platform]}, but none came from Firebase Analytics. Enable debug
        logging with <code>adb shell setprop log.tag.FA VERBOSE</code> (Android) or the <code>-FIRAnalyticsDebugEnabled</code> launch
        argument (iOS), reproduce the flow and paste the new output.
      </p>
      <CaptureHelp open />
    </section>
  );
}
