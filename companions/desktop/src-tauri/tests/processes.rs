//! The process handling against fake `adb`, `idevice_id` and `idevicesyslog` (companions/desktop/test/fakes)
//! that replay the project's recorded logs: a stream, a device unplugged mid-stream and plugged in
//! again, an unauthorised device, adb missing, Firebase debug mode on and off, a failing logcat, an
//! iPhone, a file. Each test has its own scenario folder and its own wrappers around the fakes, so
//! the tests run in parallel.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hitscope_for_apps_lib::android;
use hitscope_for_apps_lib::devices::{self, DeviceKind, DeviceState, ToolPaths};
use hitscope_for_apps_lib::events::{Event, SourceState};
use hitscope_for_apps_lib::recordings::Library;
use hitscope_for_apps_lib::sources::{self, RunningSource, SourceSpec, SourceTools, StartOptions, ADB_MISSING};
use hitscope_for_apps_lib::tools::ToolEnv;

const SERIAL: &str = "emulator-5554";
const UDID: &str = "00008110-001A2B3C4D5E6F70";
const WAIT: Duration = Duration::from_secs(20);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

fn fixture(path: &str) -> String {
    fs::read_to_string(repo().join(path)).unwrap()
}

/// The lines `adb logcat -s FA FA-SVC` prints of a threadtime log.
fn firebase_lines(log: &str) -> Vec<String> {
    log.lines()
        .filter(|line| line.starts_with("--------- ") || line.contains(" FA      : ") || line.contains(" FA-SVC  : "))
        .map(String::from)
        .collect()
}

struct Scenario {
    _temp: tempfile::TempDir,
    dir: PathBuf,
    bin: PathBuf,
}

impl Scenario {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("scenario");
        let bin = temp.path().join("bin");
        fs::create_dir_all(&dir).unwrap();
        fs::create_dir_all(&bin).unwrap();
        let fakes = repo().join("companions/desktop/test/fakes");
        for (tool, variable) in [
            ("adb", "FAKE_ADB_DIR"),
            ("idevice_id", "FAKE_IDEVICE_DIR"),
            ("idevicesyslog", "FAKE_IDEVICE_DIR"),
            ("xcrun", "FAKE_IDEVICE_DIR"),
        ] {
            let wrapper = bin.join(tool);
            fs::write(
                &wrapper,
                format!("#!/bin/sh\nFAKE_ADB_LINE_DELAY=0.002 {variable}='{}' exec '{}' \"$@\"\n", dir.display(), fakes.join(tool).display()),
            )
            .unwrap();
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
        }
        Scenario { _temp: temp, dir, bin }
    }

    fn write(&self, name: &str, text: &str) {
        fs::write(self.dir.join(name), text).unwrap();
    }

    fn calls(&self) -> String {
        fs::read_to_string(self.dir.join("calls.log")).unwrap_or_default()
    }

    fn env(&self) -> ToolEnv {
        ToolEnv { path: Some(self.bin.as_os_str().to_owned()), ..ToolEnv::default() }
    }

    fn tools(&self) -> SourceTools {
        let paths = ToolPaths::resolve(&self.env(), None);
        // Simulators are offered on macOS only; their process handling is tested everywhere.
        let xcrun = Some(self.bin.join("xcrun"));
        SourceTools { adb: paths.adb, idevice_id: paths.idevice_id, idevicesyslog: paths.idevicesyslog, xcrun }
    }

    fn android_device(&self, state: &str) {
        self.write("devices", &format!("{SERIAL}          {state} product:sdk_gphone64_x86_64 model:Pixel_7_API_34 device:emu64xa transport_id:1\n"));
    }
}

#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<Event>>>);

impl Collected {
    fn sink(&self) -> hitscope_for_apps_lib::events::Sink {
        let events = self.0.clone();
        Arc::new(move |event| events.lock().unwrap().push(event))
    }

    fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|event| match event {
                Event::Lines { lines, .. } => Some(lines.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn states(&self) -> Vec<(SourceState, Option<String>)> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|event| match event {
                Event::State { state, message, .. } => Some((*state, message.clone())),
                _ => None,
            })
            .collect()
    }

    fn has_state(&self, wanted: SourceState) -> bool {
        self.states().iter().any(|(state, _)| *state == wanted)
    }

    fn wait(&self, what: &str, done: impl Fn(&Collected) -> bool) {
        let started = Instant::now();
        while !done(self) {
            assert!(started.elapsed() < WAIT, "timed out waiting for {what}; states {:?}, {} lines", self.states(), self.lines().len());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn start(scenario: &Scenario, spec: SourceSpec, collected: &Collected, library: Option<&Library>) -> RunningSource {
    let log = library.map(|library| {
        let session = library.create().unwrap();
        Box::new(session.add_source("src-1", &spec).unwrap()) as Box<dyn sources::LineLog>
    });
    sources::start(StartOptions {
        id: "src-1".into(),
        spec,
        tools: scenario.tools(),
        sink: collected.sink(),
        log,
        poll: Duration::from_millis(50),
        apps: BTreeMap::new(),
    })
}

fn android_spec() -> SourceSpec {
    SourceSpec::Android { serial: SERIAL.into(), name: "Pixel 7 API 34".into() }
}

#[test]
fn streams_a_device_with_its_app_names_and_records_every_line() {
    let scenario = Scenario::new();
    let log = fixture("test/fixtures/applog/android-logcat-threadtime.txt");
    scenario.android_device("device");
    scenario.write(&format!("logcat-{SERIAL}.txt"), &log);
    scenario.write(&format!("logcat-{SERIAL}.live"), "");
    scenario.write(&format!("pid-{SERIAL}-1234"), "com.example.shop");
    scenario.write(&format!("prop-{SERIAL}-debug.firebase.analytics.app"), "com.example.shop");
    let records = tempfile::tempdir().unwrap();
    let library = Library::new(records.path().to_path_buf());
    let collected = Collected::default();
    let expected = firebase_lines(&log);

    let source = start(&scenario, android_spec(), &collected, Some(&library));
    collected.wait("every line", |c| c.lines().len() >= expected.len());
    source.stop();

    assert_eq!(collected.lines(), expected, "the FA / FA-SVC lines, in order, each once");
    assert!(!collected.lines().iter().any(|line| line.contains("ActivityManager")), "only Firebase's tags");
    let events = collected.0.lock().unwrap().clone();
    let apps = events.iter().find_map(|event| match event {
        Event::Apps { apps, .. } => Some(apps.clone()),
        _ => None,
    });
    assert_eq!(apps.unwrap().get("1234").map(String::as_str), Some("com.example.shop"));
    assert!(events.iter().any(|event| matches!(event, Event::DebugMode { package: Some(p), .. } if p == "com.example.shop")));
    // Apps come before the lines they label.
    let first_apps = events.iter().position(|event| matches!(event, Event::Apps { .. })).unwrap();
    let first_lines = events.iter().position(|event| matches!(event, Event::Lines { .. })).unwrap();
    assert!(first_apps < first_lines);
    assert_eq!(collected.states().first().map(|(state, _)| *state), Some(SourceState::Streaming));
    assert_eq!(collected.states().last().map(|(state, _)| *state), Some(SourceState::Stopped));
    assert!(scenario.calls().contains(&format!("-s {SERIAL} logcat -v threadtime -s FA FA-SVC")));

    let session = &library.list()[0];
    let recorded = fs::read_to_string(library.source_path(&session.id, "src-1").unwrap()).unwrap();
    assert_eq!(recorded.lines().map(String::from).collect::<Vec<_>>(), expected);
    assert_eq!(session.sources[0].lines as usize, expected.len());
    assert_eq!(session.sources[0].apps.get("1234").map(String::as_str), Some("com.example.shop"));
}

#[test]
fn a_device_unplugged_mid_stream_waits_and_resumes_without_repeating_a_line() {
    let scenario = Scenario::new();
    let log = fixture("test/fixtures/applog/android-logcat-threadtime.txt");
    let lines: Vec<&str> = log.lines().collect();
    // Pulled out after the purchase was logged by the app, before the service logged it.
    let cut = lines.iter().position(|line| line.contains("Logging event: origin=app,name=purchase")).unwrap();
    let mut replay: Vec<&str> = lines[..cut].to_vec();
    replay.push("#unplug");
    replay.extend(&lines[cut..]);
    scenario.android_device("device");
    scenario.write(&format!("logcat-{SERIAL}.txt"), &(replay.join("\n") + "\n"));
    scenario.write(&format!("logcat-{SERIAL}.live"), "");
    let collected = Collected::default();
    let expected = firebase_lines(&log);
    let before = firebase_lines(&lines[..cut].join("\n"));

    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("the unplugged state", |c| c.has_state(SourceState::Unplugged));
    assert_eq!(collected.lines(), before, "what was logged before the cable came out is kept");
    let (_, message) = collected.states().into_iter().find(|(state, _)| *state == SourceState::Unplugged).unwrap();
    assert!(message.unwrap().contains("unplugged"));

    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(collected.lines().len(), before.len(), "nothing arrives while the device is away");
    scenario.android_device("device");
    collected.wait("the rest of the log", |c| c.lines().len() >= expected.len());
    std::thread::sleep(Duration::from_millis(200));
    source.stop();

    assert_eq!(collected.lines(), expected, "every line exactly once across the gap");
    let last_before = before.iter().rev().find(|line| !line.starts_with("---------")).unwrap();
    assert!(scenario.calls().contains(&format!("logcat -v threadtime -T {} -s FA FA-SVC", &last_before[..18])), "resumed from the last line's time");
    let states: Vec<SourceState> = collected.states().into_iter().map(|(state, _)| state).collect();
    assert_eq!(states, vec![SourceState::Streaming, SourceState::Unplugged, SourceState::Streaming, SourceState::Stopped]);
}

#[test]
fn an_unauthorised_device_waits_for_the_prompt_to_be_accepted() {
    let scenario = Scenario::new();
    scenario.android_device("unauthorized");
    scenario.write(&format!("logcat-{SERIAL}.txt"), &fixture("test/fixtures/applog/android-logcat-threadtime.txt"));
    scenario.write(&format!("logcat-{SERIAL}.live"), "");
    let collected = Collected::default();

    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("the unauthorised state", |c| c.has_state(SourceState::Unauthorized));
    let (_, message) = collected.states().into_iter().find(|(state, _)| *state == SourceState::Unauthorized).unwrap();
    assert!(message.unwrap().contains("accept \u{201c}Allow USB debugging?\u{201d} on the phone"));
    assert!(!scenario.calls().contains("logcat"), "no stream is started before the prompt is accepted");
    let unauthorised = devices::scan(&ToolPaths::resolve(&scenario.env(), None), &mut Default::default());
    assert_eq!(unauthorised.devices[0].state, DeviceState::Unauthorized);

    scenario.android_device("device");
    collected.wait("the stream", |c| !c.lines().is_empty());
    source.stop();
    let states: Vec<SourceState> = collected.states().into_iter().map(|(state, _)| state).collect();
    assert_eq!(states[..2], [SourceState::Unauthorized, SourceState::Streaming]);
}

#[test]
fn without_adb_the_list_and_the_source_say_so() {
    let scenario = Scenario::new();
    fs::remove_file(scenario.bin.join("adb")).unwrap();
    let paths = ToolPaths::resolve(&scenario.env(), None);
    assert_eq!(paths.adb, None);
    let list = devices::scan(&paths, &mut Default::default());
    assert_eq!(list.tools.adb.path, None);
    assert!(list.devices.iter().all(|device| device.platform != devices::Platform::Android));

    let collected = Collected::default();
    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("the missing tool", |c| c.has_state(SourceState::ToolMissing));
    source.stop();
    assert_eq!(collected.states(), vec![(SourceState::ToolMissing, Some(ADB_MISSING.to_string()))]);
    assert!(ADB_MISSING.starts_with("adb not found"));
}

#[test]
fn adb_removed_while_a_device_is_watched_is_reported_as_missing() {
    let scenario = Scenario::new();
    scenario.android_device("device");
    scenario.write(&format!("logcat-{SERIAL}.txt"), "#unplug\n");
    let collected = Collected::default();
    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("the unplugged state", |c| c.has_state(SourceState::Unplugged));
    fs::remove_file(scenario.bin.join("adb")).unwrap();
    collected.wait("the missing tool", |c| c.has_state(SourceState::ToolMissing));
    source.stop();
}

#[test]
fn turns_debug_mode_on_for_a_package_and_off_again() {
    let scenario = Scenario::new();
    scenario.android_device("device");
    scenario.write(&format!("packages-{SERIAL}"), "com.example.shop\ncom.example.game\n");
    let adb = scenario.tools().adb.unwrap();

    assert_eq!(android::installed_packages(&adb, SERIAL).unwrap(), vec!["com.example.game", "com.example.shop"]);
    assert_eq!(android::debug_app(&adb, SERIAL).unwrap(), None, "off when never set");

    android::set_debug_app(&adb, SERIAL, Some("com.example.shop")).unwrap();
    assert_eq!(android::debug_app(&adb, SERIAL).unwrap().as_deref(), Some("com.example.shop"));
    let calls = scenario.calls();
    assert!(calls.contains(&format!("-s {SERIAL} shell setprop debug.firebase.analytics.app com.example.shop")));
    assert!(calls.contains(&format!("-s {SERIAL} shell setprop log.tag.FA VERBOSE")));
    assert!(calls.contains(&format!("-s {SERIAL} shell setprop log.tag.FA-SVC VERBOSE")));

    // A source started now says debug mode is on before its first line.
    scenario.write(&format!("logcat-{SERIAL}.txt"), &fixture("test/fixtures/applog/android-logcat-threadtime.txt"));
    scenario.write(&format!("logcat-{SERIAL}.live"), "");
    let collected = Collected::default();
    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("a line", |c| !c.lines().is_empty());
    source.stop();
    assert!(matches!(collected.0.lock().unwrap().iter().find(|e| matches!(e, Event::DebugMode { .. })), Some(Event::DebugMode { package: Some(p), .. }) if p == "com.example.shop"));

    android::set_debug_app(&adb, SERIAL, None).unwrap();
    assert_eq!(android::debug_app(&adb, SERIAL).unwrap(), None);
    assert!(scenario.calls().contains(&format!("-s {SERIAL} shell setprop debug.firebase.analytics.app .none.")));

    let before = scenario.calls();
    let refused = android::set_debug_app(&adb, SERIAL, Some("com.example;reboot"));
    assert!(refused.unwrap_err().contains("not an Android package name"));
    assert_eq!(scenario.calls(), before, "nothing is sent to the device for a bad name");
}

#[test]
fn debug_mode_fails_clearly_for_an_unauthorised_device() {
    let scenario = Scenario::new();
    scenario.android_device("unauthorized");
    let adb = scenario.tools().adb.unwrap();
    let error = android::set_debug_app(&adb, SERIAL, Some("com.example.shop")).unwrap_err();
    assert!(error.contains("device unauthorized"), "{error}");
}

#[test]
fn a_logcat_that_keeps_failing_ends_the_source_with_what_adb_said() {
    let scenario = Scenario::new();
    scenario.android_device("device");
    scenario.write(&format!("logcat-{SERIAL}.fail"), "logcat: Unable to open log device '/dev/log/main': Permission denied\n");
    let collected = Collected::default();
    let source = start(&scenario, android_spec(), &collected, None);
    collected.wait("the failure", |c| c.has_state(SourceState::Failed));
    source.stop();
    let (_, message) = collected.states().into_iter().find(|(state, _)| *state == SourceState::Failed).unwrap();
    assert!(message.unwrap().contains("Unable to open log device"));
}

#[test]
fn lists_two_devices_an_unauthorised_one_and_an_iphone() {
    let scenario = Scenario::new();
    scenario.write(
        "devices",
        "emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n\
         0A1B2C3D               device usb:1-2 product:panther model:Pixel_7 device:panther transport_id:3\n\
         R58M12345AB            unauthorized usb:1-1 transport_id:2\n",
    );
    iphone(&scenario, "");
    let list = devices::scan(&ToolPaths::resolve(&scenario.env(), None), &mut Default::default());
    let names: Vec<(&str, DeviceState, DeviceKind)> = list.devices.iter().map(|d| (d.name.as_str(), d.state, d.kind)).collect();
    assert_eq!(
        names,
        vec![
            ("sdk gphone64 x86 64", DeviceState::Ready, DeviceKind::Emulator),
            ("Pixel 7", DeviceState::Ready, DeviceKind::Phone),
            ("R58M12345AB", DeviceState::Unauthorized, DeviceKind::Phone),
            ("Ada's iPhone", DeviceState::Ready, DeviceKind::Phone),
        ]
    );
    assert!(list.tools.adb.path.is_some() && list.tools.ios.path.is_some());
}

fn iphone(scenario: &Scenario, extra: &str) {
    scenario.write("iphones", &format!("{UDID}{extra}\n"));
    scenario.write(&format!("name-{UDID}"), "Ada's iPhone");
}

#[test]
fn streams_an_iphone_and_notices_it_leaving() {
    let scenario = Scenario::new();
    let log = fixture("companions/desktop/test/fixtures/idevicesyslog-shop.txt");
    iphone(&scenario, "");
    scenario.write(&format!("syslog-{UDID}.txt"), &format!("{log}#unplug\n"));
    let collected = Collected::default();
    let spec = SourceSpec::Ios { udid: UDID.into(), name: "Ada's iPhone".into() };
    let source = start(&scenario, spec, &collected, None);
    collected.wait("the unplugged state", |c| c.has_state(SourceState::Unplugged));
    source.stop();
    let expected: Vec<String> = log.lines().map(String::from).collect();
    assert_eq!(collected.lines(), expected, "the messages with their continuation lines, without the tool's own notices");
    assert!(scenario.calls().contains(&format!("idevicesyslog -u {UDID} --no-colors -x -m Analytics][")));
}

#[test]
fn an_iphone_that_does_not_trust_the_computer_waits() {
    let scenario = Scenario::new();
    iphone(&scenario, " untrusted");
    let collected = Collected::default();
    let spec = SourceSpec::Ios { udid: UDID.into(), name: "iPhone".into() };
    let source = start(&scenario, spec, &collected, None);
    collected.wait("the untrusted state", |c| c.has_state(SourceState::Unauthorized));
    let list = devices::scan(&ToolPaths::resolve(&scenario.env(), None), &mut Default::default());
    assert_eq!(list.devices[0].state, DeviceState::Untrusted);
    iphone(&scenario, "");
    scenario.write(&format!("syslog-{UDID}.txt"), &fixture("companions/desktop/test/fixtures/idevicesyslog-shop.txt"));
    scenario.write(&format!("syslog-{UDID}.live"), "");
    collected.wait("the stream", |c| !c.lines().is_empty());
    source.stop();
}

#[test]
fn reads_a_log_file_to_its_end() {
    let scenario = Scenario::new();
    let path = repo().join("test/fixtures/applog/ios-console-xcode.txt");
    let collected = Collected::default();
    let spec = SourceSpec::File { path: path.display().to_string() };
    let source = start(&scenario, spec, &collected, None);
    collected.wait("the end", |c| c.has_state(SourceState::Ended));
    source.stop();
    let text = fs::read_to_string(path).unwrap();
    assert_eq!(collected.lines(), text.lines().map(String::from).collect::<Vec<_>>());
}

#[test]
fn streams_a_booted_simulator_and_notices_it_shutting_down() {
    let scenario = Scenario::new();
    let sim = "A1B2C3D4-0000-4000-8000-000000000001";
    scenario.write("simulators", &format!("{sim} iPhone-15\n"));
    // `log stream --style compact`: the Xcode console fixture's messages in that form.
    let xcode = fixture("test/fixtures/applog/ios-console-xcode.txt");
    let compact: String = xcode
        .lines()
        .map(|line| match line.split_once(' ').zip(line.find(" ShopApp[")) {
            Some(((date, rest), _)) if rest.len() > 15 => format!("{date} {} Df {}\n", &rest[..12], &rest[rest.find("ShopApp").unwrap()..]),
            _ => format!("{line}\n"),
        })
        .collect();
    scenario.write(&format!("simlog-{sim}.txt"), &compact);
    scenario.write(&format!("simlog-{sim}.live"), "");
    assert_eq!(devices::scan_simulators(&scenario.bin.join("xcrun")).unwrap()[0].name, "iPhone-15 (iOS 17.5)");

    let collected = Collected::default();
    let spec = SourceSpec::Simulator { udid: sim.into(), name: "iPhone 15".into() };
    let source = start(&scenario, spec, &collected, None);
    collected.wait("the stream", |c| c.lines().len() >= compact.lines().count());
    assert!(!collected.lines().iter().any(|line| line.starts_with("Filtering the log data")), "log stream's own header is dropped");
    scenario.write("simulators", "");
    collected.wait("the shut-down state", |c| c.has_state(SourceState::Unplugged));
    source.stop();
    assert!(scenario.calls().contains(&format!("xcrun simctl spawn {sim} log stream --style compact --level debug --predicate")));
}
