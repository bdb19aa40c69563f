import { useToast } from '../../../components/Toaster.js';
import '../applog.css';

/** A shell command with a copy button. */
export function CopyCommand({ command, label }: { command: string; label: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      toast('Command copied', 'success');
    } catch {
      toast('Could not copy: select the command and copy it by hand.', 'error');
    }
  };
  return (
    <div className="applog-command">
      <code>{command}</code>
      <button type="button" className="button button--small button--ghost" onClick={() => void copy()} aria-label={`Copy: ${label}`}>
        Copy
      </button>
    </div>
  );
}

export const ANDROID_COMMANDS = [
  { command: 'adb shell setprop log.tag.FA VERBOSE', label: 'enable FA verbose logging' },
  { command: 'adb shell setprop log.tag.FA-SVC VERBOSE', label: 'enable FA-SVC verbose logging' },
  { command: 'adb shell setprop debug.firebase.analytics.app <your.package.name>', label: 'enable DebugView for your app' },
  { command: 'adb logcat -v threadtime -s FA FA-SVC', label: 'capture the Firebase lines' },
];

export const IOS_COMMANDS = [
  { command: '-FIRDebugEnabled', label: 'Xcode launch argument -FIRDebugEnabled' },
  { command: '-FIRAnalyticsDebugEnabled', label: 'Xcode launch argument -FIRAnalyticsDebugEnabled' },
];

/** How to capture a log with Firebase Analytics debug logging, on both platforms. */
export function CaptureHelp({ open = false }: { open?: boolean }) {
  return (
    <details className="applog-help" open={open}>
      <summary>How to capture a log with Firebase Analytics debug logging</summary>
      <div className="applog-help__grid">
        <div>
          <h4>Android</h4>
          <p className="muted">With the device connected (USB debugging on), run:</p>
          {ANDROID_COMMANDS.map((each) => (
            <CopyCommand key={each.command} {...each} />
          ))}
          <p className="muted">Or copy the FA / FA-SVC lines from Android Studio's Logcat window.</p>
        </div>
        <div>
          <h4>iOS</h4>
          <p className="muted">
            In Xcode, Product › Scheme › Edit Scheme › Run › Arguments Passed On Launch, add either argument, run the app and copy the
            console output:
          </p>
          {IOS_COMMANDS.map((each) => (
            <CopyCommand key={each.command} {...each} />
          ))}
        </div>
      </div>
    </details>
  );
}
