//! Log sources: an Android device (`adb logcat` with the Firebase tags), an iOS device
//! (`idevicesyslog`), an iOS simulator (`xcrun simctl spawn … log stream`, macOS) and a log file.
//!
//! Each source runs on a thread of its own. It checks its device, starts the tool, passes the lines
//! on in batches (at most every 50 ms: every event shows the moment the SDK logs it, without one
//! message per line), writes them to the recording, and when the tool ends asks why: a device that
//! went away makes the source wait for it and resume where it stopped (logcat's `-T` from the last
//! line, the lines already seen skipped), an unaccepted prompt makes it wait for the prompt. Only
//! stopping it, or a tool that keeps failing, ends it.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::android;
use crate::devices::{self, DeviceState};
use crate::events::{Event, Sink, SourceState};
use crate::tools::command;

/// A batch leaves after this long, or when it is full.
const BATCH_WAIT: Duration = Duration::from_millis(50);
const BATCH_LINES: usize = 2000;
/// Lines read from a file per batch (a file is read as fast as the window takes it).
const FILE_BATCH_LINES: usize = 5000;
/// A tool that ends this many times within FAILURE_WINDOW while its device is fine is broken, not flaky.
const MAX_QUICK_FAILURES: usize = 3;
const FAILURE_WINDOW: Duration = Duration::from_secs(20);
/// A line longer than this is cut (logcat splits at ~4 kB; this only guards against a runaway tool).
const MAX_LINE_BYTES: usize = 256 * 1024;

/// What to watch, as the window asks for it.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SourceSpec {
    Android { serial: String, name: String },
    Ios { udid: String, name: String },
    Simulator { udid: String, name: String },
    File { path: String },
}

impl SourceSpec {
    pub fn label(&self) -> String {
        match self {
            SourceSpec::Android { name, .. } | SourceSpec::Ios { name, .. } | SourceSpec::Simulator { name, .. } => name.clone(),
            SourceSpec::File { path } => Path::new(path).file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| path.clone()),
        }
    }

    /// `android`, `ios`, or None for a file (the window detects its platform from the text).
    pub fn platform(&self) -> Option<&'static str> {
        match self {
            SourceSpec::Android { .. } => Some("android"),
            SourceSpec::Ios { .. } | SourceSpec::Simulator { .. } => Some("ios"),
            SourceSpec::File { .. } => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            SourceSpec::Android { .. } => "android",
            SourceSpec::Ios { .. } => "ios",
            SourceSpec::Simulator { .. } => "simulator",
            SourceSpec::File { .. } => "file",
        }
    }
}

/// Where the lines of a source are kept (the session's recording).
pub trait LineLog: Send {
    fn lines(&mut self, lines: &[String]);
    fn apps(&mut self, apps: &BTreeMap<String, String>);
    /// The source has ended; write what is buffered.
    fn close(&mut self);
}

/// The tools a source may need.
#[derive(Clone, Debug, Default)]
pub struct SourceTools {
    pub adb: Option<PathBuf>,
    pub idevice_id: Option<PathBuf>,
    pub idevicesyslog: Option<PathBuf>,
    pub xcrun: Option<PathBuf>,
}

/// A running source; dropping it does not stop it, `stop` does.
pub struct RunningSource {
    stop: Arc<AtomicBool>,
    child: Arc<Mutex<Option<Child>>>,
    thread: Option<JoinHandle<()>>,
}

impl RunningSource {
    /// Stops the tool and waits for the source's thread to write its last lines.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(child) = self.child.lock().unwrap().as_mut() {
            let _ = child.kill();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|thread| thread.is_finished())
    }
}

/// Everything a source's thread works with.
struct Ctx {
    id: String,
    sink: Sink,
    stop: Arc<AtomicBool>,
    child: Arc<Mutex<Option<Child>>>,
    log: Option<Box<dyn LineLog>>,
    /// Pause between device checks while waiting.
    poll: Duration,
    /// pid → process name, for the app labels (Android).
    apps: BTreeMap<String, String>,
    apps_dirty: bool,
    state: Option<SourceState>,
}

impl Ctx {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn state(&mut self, state: SourceState, message: Option<String>) {
        // A waiting state is said once, not on every check.
        if self.state == Some(state) && !state.is_final() && state != SourceState::Streaming {
            return;
        }
        self.state = Some(state);
        (self.sink)(Event::State { source: self.id.clone(), state, message });
    }

    fn emit_lines(&mut self, lines: Vec<String>) {
        if self.apps_dirty {
            self.apps_dirty = false;
            if let Some(log) = self.log.as_mut() {
                log.apps(&self.apps);
            }
            (self.sink)(Event::Apps { source: self.id.clone(), apps: self.apps.clone() });
        }
        if lines.is_empty() {
            return;
        }
        if let Some(log) = self.log.as_mut() {
            log.lines(&lines);
        }
        (self.sink)(Event::Lines { source: self.id.clone(), lines });
    }

    /// Sleeps for one poll, waking early when stopped. False when stopped.
    fn wait(&self) -> bool {
        let until = Instant::now() + self.poll;
        while Instant::now() < until {
            if self.stopped() {
                return false;
            }
            thread::sleep(Duration::from_millis(20).min(self.poll));
        }
        !self.stopped()
    }

    fn finish(&mut self, state: SourceState, message: Option<String>) {
        if let Some(log) = self.log.as_mut() {
            log.close();
        }
        self.state(state, message);
    }
}

pub struct StartOptions {
    pub id: String,
    pub spec: SourceSpec,
    pub tools: SourceTools,
    pub sink: Sink,
    pub log: Option<Box<dyn LineLog>>,
    pub poll: Duration,
    /// Names of pids already known (a recording being replayed).
    pub apps: BTreeMap<String, String>,
}

pub fn start(options: StartOptions) -> RunningSource {
    let stop = Arc::new(AtomicBool::new(false));
    let child = Arc::new(Mutex::new(None));
    let mut ctx = Ctx {
        id: options.id,
        sink: options.sink,
        stop: stop.clone(),
        child: child.clone(),
        log: options.log,
        poll: options.poll,
        apps_dirty: !options.apps.is_empty(),
        apps: options.apps,
        state: None,
    };
    let spec = options.spec;
    let tools = options.tools;
    let thread = thread::Builder::new()
        .name(format!("source {}", ctx.id))
        .spawn(move || match spec {
            SourceSpec::Android { serial, .. } => run_android(&mut ctx, tools.adb, &serial),
            SourceSpec::Ios { udid, .. } => run_ios(&mut ctx, tools.idevice_id, tools.idevicesyslog, &udid),
            SourceSpec::Simulator { udid, .. } => run_simulator(&mut ctx, tools.xcrun, &udid),
            SourceSpec::File { path } => run_file(&mut ctx, Path::new(&path)),
        })
        .expect("could not start a source thread");
    RunningSource { stop, child, thread: Some(thread) }
}

/// How a tool's run ended.
struct Exit {
    status: Option<i32>,
    stderr: String,
    /// Lines it printed (after filtering).
    lines: usize,
    killed: bool,
}

/// Runs `child` to its end: its lines go through `filter` (None drops a line), in batches, to the
/// window and the recording.
fn pump(ctx: &mut Ctx, mut child: Child, mut filter: impl FnMut(&mut Ctx, String) -> Option<String>) -> Exit {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    *ctx.child.lock().unwrap() = Some(child);
    // A bounded queue: a window that falls behind slows the reader, never memory without end.
    let (sender, receiver) = mpsc::sync_channel::<String>(20_000);
    let reader = thread::spawn(move || {
        let Some(stdout) = stdout else { return };
        let mut reader = BufReader::with_capacity(64 * 1024, stdout);
        let mut buffer = Vec::with_capacity(1024);
        loop {
            buffer.clear();
            match reader.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if buffer.len() > MAX_LINE_BYTES {
                        buffer.truncate(MAX_LINE_BYTES);
                    }
                    let line = String::from_utf8_lossy(&buffer);
                    let line = line.trim_end_matches(['\n', '\r']);
                    if sender.send(line.to_string()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let errors = thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr {
            let mut bytes = Vec::new();
            let _ = stderr.take(64 * 1024).read_to_end(&mut bytes);
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text
    });

    let mut batch: Vec<String> = Vec::new();
    let mut first_at: Option<Instant> = None;
    let mut count = 0;
    loop {
        let timeout = first_at.map_or(Duration::from_millis(200), |at| BATCH_WAIT.saturating_sub(at.elapsed()));
        match receiver.recv_timeout(timeout) {
            Ok(line) => {
                if let Some(line) = filter(ctx, line) {
                    count += 1;
                    batch.push(line);
                    first_at.get_or_insert_with(Instant::now);
                }
                if batch.len() >= BATCH_LINES {
                    ctx.emit_lines(std::mem::take(&mut batch));
                    first_at = None;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if !batch.is_empty() || ctx.apps_dirty {
                    ctx.emit_lines(std::mem::take(&mut batch));
                }
                first_at = None;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    ctx.emit_lines(batch);
    let _ = reader.join();
    let child = ctx.child.lock().unwrap().take();
    let status = child.and_then(|mut child| child.wait().ok()).and_then(|status| status.code());
    Exit { status, stderr: errors.join().unwrap_or_default(), lines: count, killed: ctx.stopped() }
}

fn spawn(program: &Path, args: &[String]) -> std::io::Result<Child> {
    command(program, args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()
}

/// Counts tool runs that ended on their own while the device was fine.
struct Failures(Vec<Instant>);

impl Failures {
    /// Records one; true when there were too many recently.
    fn record(&mut self) -> bool {
        let now = Instant::now();
        self.0.retain(|at| now.duration_since(*at) < FAILURE_WINDOW);
        self.0.push(now);
        self.0.len() >= MAX_QUICK_FAILURES
    }
}

/* -------------------------------- Android -------------------------------- */

pub const ADB_MISSING: &str =
    "adb not found. Install Android SDK Platform-Tools (or Android Studio), or set the path to adb in Settings.";

/// The logged time of a `threadtime` line (`05-01 10:00:00.123`, with `-v year` `2024-05-01 …`) and its pid.
fn threadtime_parts(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let date_len = if bytes.len() > 4 && bytes[4] == b'-' { 10 } else { 5 };
    let time_end = date_len + 1 + 12;
    if line.len() < time_end + 2 || !bytes[0].is_ascii_digit() || bytes[date_len] != b' ' {
        return None;
    }
    let stamp = &line[..time_end];
    let pid = line[time_end..].split_whitespace().next()?;
    pid.bytes().all(|b| b.is_ascii_digit()).then_some((stamp, pid))
}

/// Skips what logcat prints again after a resume with `-T <time of the last line>`: every line
/// before that time, and the lines at that time already passed on.
#[derive(Default)]
struct Resume {
    last_time: Option<String>,
    at_last_time: HashSet<String>,
    /// Skipping until the first line after `last_time`.
    active: bool,
}

impl Resume {
    fn seen(&mut self, line: &str) {
        if let Some((time, _)) = threadtime_parts(line) {
            if self.last_time.as_deref() != Some(time) {
                self.last_time = Some(time.to_string());
                self.at_last_time.clear();
            }
            self.at_last_time.insert(line.to_string());
        }
    }

    fn is_repeat(&mut self, line: &str) -> bool {
        if !self.active {
            return false;
        }
        let (Some(last), Some((time, _))) = (self.last_time.as_deref(), threadtime_parts(line)) else {
            // logcat's "--------- beginning of main" and other lines without a time.
            return line.starts_with("--------- ");
        };
        if time < last || (time == last && self.at_last_time.contains(line)) {
            return true;
        }
        self.active = false;
        false
    }
}

fn run_android(ctx: &mut Ctx, adb: Option<PathBuf>, serial: &str) {
    let Some(adb) = adb else {
        return ctx.finish(SourceState::ToolMissing, Some(ADB_MISSING.into()));
    };
    let mut streamed_before = false;
    let mut failures = Failures(Vec::new());
    let mut resume = Resume::default();
    let mut asked: HashSet<String> = HashSet::new();
    loop {
        if ctx.stopped() {
            break;
        }
        // 1. Is the device there, and may we talk to it?
        let device = match devices::android_state(&adb, serial) {
            Ok(device) => device,
            Err(error) => {
                if !adb.exists() {
                    return ctx.finish(SourceState::ToolMissing, Some(ADB_MISSING.into()));
                }
                ctx.state(SourceState::Failed, Some(error));
                if !ctx.wait() {
                    break;
                }
                continue;
            }
        };
        let waiting = match device.as_ref().map(|device| (device.state, device.detail.clone())) {
            None if streamed_before => Some((
                SourceState::Unplugged,
                "The device was unplugged. What it logged is kept; plug it in again to carry on.".to_string(),
            )),
            None => Some((SourceState::NotConnected, "No device with this serial is connected.".to_string())),
            Some((DeviceState::Ready, _)) => None,
            Some((DeviceState::Unauthorized, _)) => Some((
                SourceState::Unauthorized,
                "The device is unauthorised: accept \u{201c}Allow USB debugging?\u{201d} on the phone.".to_string(),
            )),
            Some((_, detail)) => Some((SourceState::NotConnected, detail.unwrap_or_else(|| "The device is not ready.".into()))),
        };
        if let Some((state, message)) = waiting {
            ctx.state(state, Some(message));
            if !ctx.wait() {
                break;
            }
            continue;
        }

        // 2. Firebase debug mode, said before the first line so the window can explain a quiet stream.
        if let Ok(package) = android::debug_app(&adb, serial) {
            (ctx.sink)(Event::DebugMode { source: ctx.id.clone(), package });
        }

        // 3. The stream. After a pause, from the last line's time on.
        let mut args: Vec<String> = vec!["-s".into(), serial.into(), "logcat".into(), "-v".into(), "threadtime".into()];
        if let Some(time) = resume.last_time.clone().filter(|_| streamed_before) {
            args.push("-T".into());
            args.push(time);
            resume.active = true;
        }
        args.extend(["-s", "FA", "FA-SVC"].map(String::from));
        let child = match spawn(&adb, &args) {
            Ok(child) => child,
            Err(_) if !adb.exists() => return ctx.finish(SourceState::ToolMissing, Some(ADB_MISSING.into())),
            Err(error) => return ctx.finish(SourceState::Failed, Some(format!("Could not start adb logcat: {error}"))),
        };
        ctx.state(SourceState::Streaming, None);
        let adb_for_names = adb.clone();
        let serial_for_names = serial.to_string();
        let exit = pump(ctx, child, |ctx, line| {
            if resume.is_repeat(&line) {
                return None;
            }
            resume.seen(&line);
            if let Some((_, pid)) = threadtime_parts(&line) {
                if !asked.contains(pid) {
                    asked.insert(pid.to_string());
                    if let Some(name) = android::process_name(&adb_for_names, &serial_for_names, pid) {
                        ctx.apps.insert(pid.to_string(), name);
                        ctx.apps_dirty = true;
                    }
                }
            }
            Some(line)
        });
        if exit.killed || ctx.stopped() {
            break;
        }
        streamed_before = true;
        // 4. Why did it end? Unplugged, unauthorised (checked on the next round), or a failing logcat.
        let still_there = matches!(devices::android_state(&adb, serial), Ok(Some(ref device)) if device.state == DeviceState::Ready);
        if still_there && exit.lines == 0 && failures.record() {
            let said = exit.stderr.trim();
            return ctx.finish(
                SourceState::Failed,
                Some(format!(
                    "adb logcat keeps ending (exit {}){}",
                    exit.status.map_or("signal".into(), |code| code.to_string()),
                    if said.is_empty() { String::new() } else { format!(": {said}") }
                )),
            );
        }
        if still_there && !ctx.wait() {
            break;
        }
    }
    ctx.finish(SourceState::Stopped, None);
}

/* ---------------------------------- iOS ---------------------------------- */

pub const IOS_MISSING: &str =
    "idevicesyslog not found. Install libimobiledevice (Linux: the libimobiledevice-utils package; macOS: brew install libimobiledevice).";

fn run_ios(ctx: &mut Ctx, idevice_id: Option<PathBuf>, idevicesyslog: Option<PathBuf>, udid: &str) {
    let (Some(idevice_id), Some(syslog)) = (idevice_id, idevicesyslog) else {
        return ctx.finish(SourceState::ToolMissing, Some(IOS_MISSING.into()));
    };
    let mut streamed_before = false;
    let mut failures = Failures(Vec::new());
    loop {
        if ctx.stopped() {
            break;
        }
        match devices::ios_attached(&idevice_id, udid) {
            Ok(true) => {}
            Ok(false) => {
                let (state, message) = if streamed_before {
                    (SourceState::Unplugged, "The iPhone was unplugged. What it logged is kept; plug it in again to carry on.")
                } else {
                    (SourceState::NotConnected, "No iPhone with this UDID is connected.")
                };
                ctx.state(state, Some(message.into()));
                if !ctx.wait() {
                    break;
                }
                continue;
            }
            Err(error) => {
                ctx.state(SourceState::Failed, Some(format!("idevice_id failed: {error}")));
                if !ctx.wait() {
                    break;
                }
                continue;
            }
        }
        // -x: end when the device goes, so this loop says "unplugged"; -m: only Firebase's messages
        // (a whole message, its continuation lines included, is matched).
        let args: Vec<String> = ["-u", udid, "--no-colors", "-x", "-m", "Analytics]["].map(String::from).to_vec();
        let child = match spawn(&syslog, &args) {
            Ok(child) => child,
            Err(_) if !syslog.exists() => return ctx.finish(SourceState::ToolMissing, Some(IOS_MISSING.into())),
            Err(error) => return ctx.finish(SourceState::Failed, Some(format!("Could not start idevicesyslog: {error}"))),
        };
        ctx.state(SourceState::Streaming, None);
        let exit = pump(ctx, child, |_, line| {
            // idevicesyslog's own notices.
            (line != "[connected]" && line != "[disconnected]").then_some(line)
        });
        if exit.killed || ctx.stopped() {
            break;
        }
        let said = exit.stderr.trim().to_string();
        if said.contains("lockdownd") || said.contains("pair") || said.contains("passcode") {
            ctx.state(
                SourceState::Unauthorized,
                Some("The iPhone does not trust this computer: unlock it and tap \u{201c}Trust\u{201d}.".into()),
            );
            if !ctx.wait() {
                break;
            }
            continue;
        }
        let still_there = matches!(devices::ios_attached(&idevice_id, udid), Ok(true));
        if still_there && exit.lines == 0 && failures.record() {
            return ctx.finish(
                SourceState::Failed,
                Some(format!("idevicesyslog keeps ending{}", if said.is_empty() { String::new() } else { format!(": {said}") })),
            );
        }
        streamed_before = true;
        if still_there && !ctx.wait() {
            break;
        }
    }
    ctx.finish(SourceState::Stopped, None);
}

/* ------------------------------- Simulators ------------------------------ */

fn run_simulator(ctx: &mut Ctx, xcrun: Option<PathBuf>, udid: &str) {
    let Some(xcrun) = xcrun else {
        return ctx.finish(SourceState::ToolMissing, Some("xcrun not found: iOS simulators need Xcode (macOS only).".into()));
    };
    let mut streamed_before = false;
    let mut failures = Failures(Vec::new());
    loop {
        if ctx.stopped() {
            break;
        }
        let booted = devices::scan_simulators(&xcrun).map(|list| list.iter().any(|device| device.serial == udid));
        match booted {
            Ok(true) => {}
            Ok(false) => {
                let message = if streamed_before { "The simulator was shut down. What it logged is kept." } else { "This simulator is not booted." };
                ctx.state(if streamed_before { SourceState::Unplugged } else { SourceState::NotConnected }, Some(message.into()));
                if !ctx.wait() {
                    break;
                }
                continue;
            }
            Err(error) => {
                ctx.state(SourceState::Failed, Some(error));
                if !ctx.wait() {
                    break;
                }
                continue;
            }
        }
        let args: Vec<String> = [
            "simctl",
            "spawn",
            udid,
            "log",
            "stream",
            "--style",
            "compact",
            "--level",
            "debug",
            "--predicate",
            "eventMessage CONTAINS \"Analytics][\"",
        ]
        .map(String::from)
        .to_vec();
        let child = match spawn(&xcrun, &args) {
            Ok(child) => child,
            Err(error) => return ctx.finish(SourceState::Failed, Some(format!("Could not start xcrun simctl: {error}"))),
        };
        ctx.state(SourceState::Streaming, None);
        let exit = pump(ctx, child, |_, line| (!line.starts_with("Filtering the log data")).then_some(line));
        if exit.killed || ctx.stopped() {
            break;
        }
        streamed_before = true;
        let still_there = matches!(devices::scan_simulators(&xcrun), Ok(list) if list.iter().any(|device| device.serial == udid));
        if still_there && exit.lines == 0 && failures.record() {
            return ctx.finish(SourceState::Failed, Some(format!("log stream keeps ending: {}", exit.stderr.trim())));
        }
        if still_there && !ctx.wait() {
            break;
        }
    }
    ctx.finish(SourceState::Stopped, None);
}

/* --------------------------------- Files --------------------------------- */

/// Reads a log file (or a recording) to its end, in large batches.
fn run_file(ctx: &mut Ctx, path: &Path) {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) => return ctx.finish(SourceState::Failed, Some(format!("Could not open {}: {error}", path.display()))),
    };
    ctx.state(SourceState::Streaming, None);
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    let mut batch = Vec::with_capacity(FILE_BATCH_LINES);
    let mut buffer = Vec::new();
    loop {
        if ctx.stopped() {
            return ctx.finish(SourceState::Stopped, None);
        }
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {
                buffer.truncate(MAX_LINE_BYTES);
                let line = String::from_utf8_lossy(&buffer);
                batch.push(line.trim_end_matches(['\n', '\r']).to_string());
                if batch.len() >= FILE_BATCH_LINES {
                    ctx.emit_lines(std::mem::take(&mut batch));
                }
            }
            Err(error) => return ctx.finish(SourceState::Failed, Some(format!("Could not read {}: {error}", path.display()))),
        }
    }
    ctx.emit_lines(batch);
    ctx.finish(SourceState::Ended, None);
}

/// Stops every source in `sources` (on exit).
pub fn stop_all(sources: Vec<RunningSource>) {
    for source in sources {
        source.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_time_and_pid_of_threadtime_lines() {
        assert_eq!(
            threadtime_parts("05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): x"),
            Some(("05-01 10:00:01.210", "1234"))
        );
        assert_eq!(
            threadtime_parts("2024-05-01 10:00:01.210  1234  1260 V FA      : x"),
            Some(("2024-05-01 10:00:01.210", "1234"))
        );
        assert_eq!(threadtime_parts("--------- beginning of main"), None);
    }

    #[test]
    fn a_resume_skips_the_lines_already_passed_on() {
        let mut resume = Resume::default();
        let a = "05-01 10:00:01.210  1234  1260 V FA      : a";
        let b = "05-01 10:00:02.000  1234  1260 V FA      : b";
        let c = "05-01 10:00:02.000  1234  1260 V FA      : c";
        resume.seen(a);
        resume.seen(b);
        resume.active = true;
        assert!(resume.is_repeat("--------- beginning of main"));
        assert!(resume.is_repeat(a));
        assert!(resume.is_repeat(b));
        assert!(!resume.is_repeat(c), "a line at the same time not seen before is new");
        assert!(!resume.is_repeat(a), "after the first new line nothing is skipped");
    }
}
