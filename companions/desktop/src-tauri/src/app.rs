//! The window's shell: the Tauri commands over the modules of the crate, the app's state and its
//! run loop (the `app` feature).

#[allow(unused_imports)]
use crate::{android, devices, events, machine, recordings, settings, site, sources, tools, updates};

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, RunEvent, State};

use devices::{DeviceList, DeviceState, ToolPaths};
use events::{Event, Sink};
use recordings::{Library, Session, SessionMeta, SessionSummary};
use settings::Settings;
use sources::{LineLog, RunningSource, SourceSpec, SourceTools, StartOptions};
use tools::ToolEnv;

const DEVICE_SCAN_EVERY: Duration = Duration::from_millis(1000);
const SOURCE_POLL: Duration = Duration::from_millis(1000);

/// A source's recording, swappable when a new session starts while the source keeps streaming.
#[derive(Clone, Default)]
struct SharedLog {
    inner: Arc<Mutex<Option<Box<dyn LineLog>>>>,
    apps: Arc<Mutex<BTreeMap<String, String>>>,
}

impl SharedLog {
    fn swap(&self, next: Option<Box<dyn LineLog>>) {
        let mut inner = self.inner.lock().unwrap();
        if let Some(mut old) = inner.take() {
            old.close();
        }
        *inner = next;
        let apps = self.apps.lock().unwrap();
        if let (Some(log), false) = (inner.as_mut(), apps.is_empty()) {
            log.apps(&apps);
        }
    }
}

impl LineLog for SharedLog {
    fn lines(&mut self, lines: &[String]) {
        if let Some(log) = self.inner.lock().unwrap().as_mut() {
            log.lines(lines);
        }
    }
    fn apps(&mut self, apps: &BTreeMap<String, String>) {
        *self.apps.lock().unwrap() = apps.clone();
        if let Some(log) = self.inner.lock().unwrap().as_mut() {
            log.apps(apps);
        }
    }
    fn close(&mut self) {
        if let Some(log) = self.inner.lock().unwrap().as_mut() {
            log.close();
        }
    }
}

struct LiveSource {
    spec: SourceSpec,
    running: RunningSource,
    log: SharedLog,
}

struct Paths {
    settings: PathBuf,
    licence: PathBuf,
    debug_mode: PathBuf,
    data: PathBuf,
    updates: PathBuf,
}

pub struct AppState {
    paths: Paths,
    settings: Mutex<Settings>,
    env: ToolEnv,
    channel: Mutex<Option<Channel<Event>>>,
    devices: Mutex<DeviceList>,
    sources: Mutex<HashMap<String, LiveSource>>,
    session: Mutex<Option<Session>>,
    library: Library,
    /// serial → package: debug mode this app turned on, turned off again on exit.
    debug_set: Mutex<BTreeMap<String, String>>,
    verified: Mutex<updates::Verified>,
    counter: AtomicU64,
}

impl AppState {
    fn sink(self: &Arc<Self>) -> Sink {
        let state = Arc::clone(self);
        Arc::new(move |event| {
            if let Some(channel) = state.channel.lock().unwrap().as_ref() {
                let _ = channel.send(event);
            }
        })
    }

    fn tool_paths(&self) -> ToolPaths {
        let adb = self.settings.lock().unwrap().adb_path.clone();
        ToolPaths::resolve(&self.env, adb.as_deref().map(Path::new))
    }

    fn save_debug_set(&self, set: &BTreeMap<String, String>) {
        let _ = fs::write(&self.paths.debug_mode, serde_json::to_vec(set).unwrap_or_default());
    }
}

type Shared<'a> = State<'a, Arc<AppState>>;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AppInfo {
    version: String,
    /// `linux`, `macos`, `windows`: the releases API's platform.
    platform: &'static str,
    /// `x64`, `arm64`.
    arch: &'static str,
    /// The package format updates come in.
    format: &'static str,
    data_dir: String,
    /// This computer's name, shown in the site's list of the licence's devices.
    host_name: String,
}

fn host_name() -> String {
    let from_env = std::env::var("HOSTNAME").or_else(|_| std::env::var("COMPUTERNAME")).ok().filter(|name| !name.trim().is_empty());
    from_env
        .or_else(|| fs::read_to_string("/etc/hostname").ok().map(|name| name.trim().to_string()).filter(|name| !name.is_empty()))
        .or_else(|| tools::run(Path::new("/bin/hostname"), &[], Duration::from_secs(2)).ok().map(|output| output.stdout.trim().to_string()).filter(|name| !name.is_empty()))
        .unwrap_or_else(|| "This computer".into())
}

fn package_format() -> &'static str {
    if cfg!(target_os = "macos") {
        "dmg"
    } else if cfg!(windows) {
        "msi"
    } else if Path::new("/etc/debian_version").exists() {
        "deb"
    } else {
        "rpm"
    }
}

#[tauri::command]
fn app_info(app: AppHandle, state: Shared) -> AppInfo {
    AppInfo {
        version: app.package_info().version.to_string(),
        platform: if cfg!(target_os = "macos") {
            "macos"
        } else if cfg!(windows) {
            "windows"
        } else {
            "linux"
        },
        arch: if cfg!(target_arch = "aarch64") { "arm64" } else { "x64" },
        format: package_format(),
        data_dir: state.paths.data.display().to_string(),
        host_name: host_name(),
    }
}

/// The window's one channel for everything the back end reports; the device list is sent at once.
#[tauri::command]
fn subscribe(channel: Channel<Event>, state: Shared) {
    let list = state.devices.lock().unwrap().clone();
    let _ = channel.send(Event::Devices { list });
    *state.channel.lock().unwrap() = Some(channel);
}

#[tauri::command]
fn get_settings(state: Shared) -> Settings {
    state.settings.lock().unwrap().clone()
}

#[tauri::command]
fn save_settings(settings: Settings, state: Shared) -> Result<Settings, String> {
    let settings = settings.validated()?;
    settings::save(&state.paths.settings, &settings)?;
    *state.settings.lock().unwrap() = settings.clone();
    Ok(settings)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StartedSource {
    id: String,
    session_id: String,
    label: String,
    kind: &'static str,
    platform: Option<&'static str>,
}

fn current_session(state: &AppState) -> Result<Session, String> {
    let mut session = state.session.lock().unwrap();
    if session.is_none() {
        *session = Some(state.library.create()?);
    }
    Ok(session.clone().unwrap())
}

fn start_live(state: &Arc<AppState>, spec: SourceSpec) -> Result<StartedSource, String> {
    if let SourceSpec::File { path } = &spec {
        if !Path::new(path).is_file() {
            return Err(format!("{path} is not a file"));
        }
    }
    {
        let sources = state.sources.lock().unwrap();
        if let Some((id, _)) = sources.iter().find(|(_, live)| live.spec == spec && !live.running.is_finished() && !matches!(spec, SourceSpec::File { .. })) {
            return Err(format!("This device is already being watched ({id})."));
        }
    }
    let session = current_session(state)?;
    let id = format!("src-{}-{}", state.counter.fetch_add(1, Ordering::SeqCst) + 1, &uuid::Uuid::new_v4().simple().to_string()[..6]);
    let recording = session.add_source(&id, &spec)?;
    let log = SharedLog::default();
    log.swap(Some(Box::new(recording)));
    let paths = state.tool_paths();
    let running = sources::start(StartOptions {
        id: id.clone(),
        spec: spec.clone(),
        tools: SourceTools { adb: paths.adb, idevice_id: paths.idevice_id, idevicesyslog: paths.idevicesyslog, xcrun: paths.xcrun },
        sink: state.sink(),
        log: Some(Box::new(log.clone())),
        poll: SOURCE_POLL,
        apps: BTreeMap::new(),
    });
    let started = StartedSource { id: id.clone(), session_id: session.id(), label: spec.label(), kind: spec.kind(), platform: spec.platform() };
    state.sources.lock().unwrap().insert(id, LiveSource { spec, running, log });
    Ok(started)
}

#[tauri::command]
fn start_source(spec: SourceSpec, state: Shared) -> Result<StartedSource, String> {
    start_live(&state, spec)
}

#[tauri::command]
fn stop_source(id: String, state: Shared) {
    let live = state.sources.lock().unwrap().remove(&id);
    if let Some(live) = live {
        // Joining waits for the last lines to be written; off the command thread.
        thread::spawn(move || live.running.stop());
    }
}

/// Starts a new session: what follows is recorded apart; sources keep streaming into it.
#[tauri::command]
fn new_session(state: Shared) -> Result<Option<String>, String> {
    let sources = state.sources.lock().unwrap();
    let mut session = state.session.lock().unwrap();
    if sources.is_empty() {
        *session = None;
        return Ok(None);
    }
    let next = state.library.create()?;
    for (id, live) in sources.iter() {
        let recording = next.add_source(id, &live.spec)?;
        live.log.swap(Some(Box::new(recording)));
    }
    let id = next.id();
    *session = Some(next);
    Ok(Some(id))
}

fn stop_everything(state: &AppState) {
    let all: Vec<LiveSource> = state.sources.lock().unwrap().drain().map(|(_, live)| live).collect();
    sources::stop_all(all.into_iter().map(|live| live.running).collect());
    *state.session.lock().unwrap() = None;
}

#[tauri::command]
fn list_packages(serial: String, state: Shared) -> Result<Vec<String>, String> {
    let adb = state.tool_paths().adb.ok_or(sources::ADB_MISSING)?;
    android::installed_packages(&adb, &serial)
}

#[tauri::command]
fn set_debug_mode(serial: String, package: Option<String>, state: Shared) -> Result<Option<String>, String> {
    let adb = state.tool_paths().adb.ok_or(sources::ADB_MISSING)?;
    android::set_debug_app(&adb, &serial, package.as_deref())?;
    let mut set = state.debug_set.lock().unwrap();
    match &package {
        Some(name) => set.insert(serial.clone(), name.clone()),
        None => set.remove(&serial),
    };
    state.save_debug_set(&set);
    // Tell every source of this device.
    let sink = state.sink();
    for (id, live) in state.sources.lock().unwrap().iter() {
        if matches!(&live.spec, SourceSpec::Android { serial: each, .. } if *each == serial) {
            sink(Event::DebugMode { source: id.clone(), package: package.clone() });
        }
    }
    Ok(package)
}

/// Turns off the debug mode this app turned on (on exit, and for a device left on by a crash).
fn turn_debug_mode_off(state: &AppState, only_ready: Option<&DeviceList>) {
    let Some(adb) = state.tool_paths().adb else { return };
    let mut set = state.debug_set.lock().unwrap();
    let serials: Vec<String> = set.keys().cloned().collect();
    for serial in serials {
        if let Some(list) = only_ready {
            let ready = list.devices.iter().any(|device| device.serial == serial && device.state == DeviceState::Ready);
            if !ready {
                continue;
            }
        }
        if android::set_debug_app(&adb, &serial, None).is_ok() {
            set.remove(&serial);
        }
    }
    state.save_debug_set(&set);
}

#[tauri::command]
fn recordings_list(state: Shared) -> Vec<SessionMeta> {
    state.library.list()
}

#[tauri::command]
fn recording_delete(id: String, state: Shared) -> Result<(), String> {
    let current = state.session.lock().unwrap().as_ref().map(Session::id);
    if current.as_deref() == Some(id.as_str()) {
        return Err("This recording is the session being recorded now.".into());
    }
    state.library.delete(&id)
}

#[tauri::command]
fn recording_summary(id: String, summary: SessionSummary, state: Shared) -> Result<(), String> {
    state.library.set_summary(&id, summary)
}

/// Opens a recording: live sources stop (what they logged is in their own recording), and each
/// recorded source is read back through the same path as a file, with its app names.
#[tauri::command]
fn recording_open(id: String, state: Shared) -> Result<SessionMeta, String> {
    let meta = state.library.get(&id)?;
    stop_everything(&state);
    let sink = state.sink();
    for recorded in &meta.sources {
        let path = state.library.source_path(&id, &recorded.id)?;
        let running = sources::start(StartOptions {
            id: recorded.id.clone(),
            spec: SourceSpec::File { path: path.display().to_string() },
            tools: SourceTools::default(),
            sink: sink.clone(),
            log: None,
            poll: SOURCE_POLL,
            apps: recorded.apps.clone(),
        });
        let spec = SourceSpec::File { path: path.display().to_string() };
        state.sources.lock().unwrap().insert(recorded.id.clone(), LiveSource { spec, running, log: SharedLog::default() });
    }
    Ok(meta)
}

#[tauri::command]
fn export_save(path: String, contents: String) -> Result<(), String> {
    fs::write(&path, contents).map_err(|error| format!("Could not save {path}: {error}"))
}

#[tauri::command]
fn site_request(request: site::SiteRequest, state: Shared) -> Result<site::SiteResponse, String> {
    let site_url = state.settings.lock().unwrap().site_url.clone();
    site::request(&site_url, request)
}

#[tauri::command]
fn machine_id(state: Shared) -> machine::MachineId {
    machine::machine_id(&state.paths.data)
}

#[tauri::command]
fn licence_load(state: Shared) -> Option<serde_json::Value> {
    fs::read_to_string(&state.paths.licence).ok().and_then(|text| serde_json::from_str(&text).ok())
}

#[tauri::command]
fn licence_save(value: serde_json::Value, state: Shared) -> Result<(), String> {
    let text = serde_json::to_vec(&value).map_err(|error| error.to_string())?;
    write_private(&state.paths.licence, &text)
}

#[tauri::command]
fn licence_clear(state: Shared) -> Result<(), String> {
    match fs::remove_file(&state.paths.licence) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error.to_string()),
    }
}

/// Written readable by this user only: the file holds the licence key.
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|error| error.to_string())?;
    }
    let temporary = path.with_extension("tmp");
    fs::write(&temporary, bytes).map_err(|error| error.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(&temporary, fs::Permissions::from_mode(0o600));
    }
    fs::rename(&temporary, path).map_err(|error| error.to_string())
}

#[tauri::command]
async fn update_download(request: updates::DownloadRequest, state: Shared<'_>) -> Result<updates::VerifiedUpdate, updates::UpdateError> {
    let site_url = state.settings.lock().unwrap().site_url.clone();
    let dir = state.paths.updates.clone();
    let state = Arc::clone(&state);
    tauri::async_runtime::spawn_blocking(move || {
        let (verified, digest) = updates::download(&site_url, &request, &dir)?;
        state.verified.lock().unwrap().0.insert(PathBuf::from(&verified.path), digest);
        Ok(verified)
    })
    .await
    .unwrap_or_else(|_| Err(updates::UpdateError { code: "download-failed".into(), message: "The download stopped unexpectedly.".into() }))
}

#[tauri::command]
fn update_install(path: String, state: Shared) -> Result<(), updates::UpdateError> {
    updates::install(&state.verified.lock().unwrap(), Path::new(&path))
}

fn discovery(state: Arc<AppState>) {
    let mut names = HashMap::new();
    let sink = state.sink();
    loop {
        let list = devices::scan(&state.tool_paths(), &mut names);
        let changed = *state.devices.lock().unwrap() != list;
        if changed {
            if !state.debug_set.lock().unwrap().is_empty() && state.sources.lock().unwrap().is_empty() {
                // Debug mode left on by a run that did not end cleanly: off, once the device is back.
                turn_debug_mode_off(&state, Some(&list));
            }
            *state.devices.lock().unwrap() = list.clone();
            sink(Event::Devices { list });
        }
        thread::sleep(DEVICE_SCAN_EVERY);
    }
}

/// SIGTERM, SIGINT and SIGHUP (a logout, `kill`, Ctrl-C in a terminal) quit as closing the window
/// does, so the exit work runs: sources stopped, their recordings closed, debug mode turned off.
#[cfg(unix)]
fn quit_on_signals(handle: AppHandle) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) {
        let _ = thread::Builder::new().name("signals".into()).spawn(move || {
            if signals.forever().next().is_some() {
                handle.exit(0);
            }
        });
    }
}

#[cfg(not(unix))]
fn quit_on_signals(_handle: AppHandle) {}

pub fn run() {
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let config = app.path().app_config_dir()?;
            let data = app.path().app_data_dir()?;
            let cache = app.path().app_cache_dir()?;
            fs::create_dir_all(&data)?;
            let paths = Paths {
                settings: config.join("settings.json"),
                licence: data.join("licence.json"),
                debug_mode: data.join("debug-mode.json"),
                updates: cache.join("updates"),
                data: data.clone(),
            };
            let debug_set = fs::read_to_string(&paths.debug_mode).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
            let state = Arc::new(AppState {
                settings: Mutex::new(settings::load(&paths.settings)),
                paths,
                env: ToolEnv::from_process(),
                channel: Mutex::new(None),
                devices: Mutex::new(DeviceList::default()),
                sources: Mutex::new(HashMap::new()),
                session: Mutex::new(None),
                library: Library::new(data.join("recordings")),
                debug_set: Mutex::new(debug_set),
                verified: Mutex::new(updates::Verified::default()),
                counter: AtomicU64::new(0),
            });
            app.manage(Arc::clone(&state));
            thread::Builder::new().name("devices".into()).spawn(move || discovery(state))?;
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            app_info,
            subscribe,
            get_settings,
            save_settings,
            start_source,
            stop_source,
            new_session,
            list_packages,
            set_debug_mode,
            recordings_list,
            recording_delete,
            recording_summary,
            recording_open,
            export_save,
            site_request,
            machine_id,
            licence_load,
            licence_save,
            licence_clear,
            update_download,
            update_install,
        ])
        .build(tauri::generate_context!())
        .expect("could not start Hitscope for Apps");
    quit_on_signals(app.handle().clone());
    app.run(|handle, event| {
        if let RunEvent::Exit = event {
            let state = handle.state::<Arc<AppState>>();
            stop_everything(&state);
            turn_debug_mode_off(&state, None);
        }
    });
}
