//! Recordings: every session is kept on disk as it happens, one folder per session with
//! `session.json` and each source's raw lines (`<source>.log`, the text the tool printed). Raw text
//! rather than decoded events: a recording reopens through the same decoder, gets every later fix of
//! it, and opens in the web analyser too. Lines are written batch by batch (a crash loses at most
//! the batch in flight); `session.json` is replaced atomically.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::sources::{LineLog, SourceSpec};

const META: &str = "session.json";
/// `session.json` is rewritten at most this often while lines arrive (and always when a source ends).
const META_EVERY: Duration = Duration::from_secs(2);

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RecordedSource {
    pub id: String,
    pub label: String,
    /// `android`, `ios`, `simulator`, `file`.
    pub kind: String,
    /// `android` / `ios`; null for a file (detected from its text).
    pub platform: Option<String>,
    /// The device's serial or UDID, or the file's path.
    pub address: String,
    pub file: String,
    pub lines: u64,
    pub bytes: u64,
    pub started_at: u64,
    /// pid → process name (Android app labels).
    #[serde(default)]
    pub apps: BTreeMap<String, String>,
}

/// What the window counted, kept for the list of recordings.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub events: u64,
    pub issues: u64,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SessionMeta {
    pub format: String,
    pub version: u32,
    pub id: String,
    pub started_at: u64,
    pub updated_at: u64,
    pub sources: Vec<RecordedSource>,
    #[serde(default)]
    pub summary: Option<SessionSummary>,
}

/// A session id is its start time and a random tail: sortable, and never a path.
pub fn new_session_id() -> String {
    let tail = uuid::Uuid::new_v4().simple().to_string();
    format!("{}-{}", now_ms(), &tail[..8])
}

pub fn is_session_id(id: &str) -> bool {
    let mut parts = id.split('-');
    let (Some(time), Some(tail), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    !time.is_empty() && time.len() <= 16 && time.bytes().all(|b| b.is_ascii_digit()) && tail.len() == 8 && tail.bytes().all(|b| b.is_ascii_hexdigit())
}

fn is_source_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The folder that holds the recordings.
#[derive(Clone, Debug)]
pub struct Library {
    pub root: PathBuf,
}

impl Library {
    pub fn new(root: PathBuf) -> Self {
        Library { root }
    }

    fn dir(&self, id: &str) -> Result<PathBuf, String> {
        if !is_session_id(id) {
            return Err(format!("\u{201c}{id}\u{201d} is not a recording"));
        }
        Ok(self.root.join(id))
    }

    /// Every recording, newest first. A folder whose `session.json` cannot be read is skipped.
    pub fn list(&self) -> Vec<SessionMeta> {
        let mut sessions: Vec<SessionMeta> = fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_name().to_str().is_some_and(is_session_id))
            .filter_map(|entry| read_meta(&entry.path().join(META)).ok())
            .collect();
        sessions.sort_by(|a, b| b.started_at.cmp(&a.started_at).then(b.id.cmp(&a.id)));
        sessions
    }

    pub fn get(&self, id: &str) -> Result<SessionMeta, String> {
        read_meta(&self.dir(id)?.join(META))
    }

    /// The path of one source's lines in a recording.
    pub fn source_path(&self, id: &str, source: &str) -> Result<PathBuf, String> {
        let meta = self.get(id)?;
        let recorded = meta.sources.iter().find(|each| each.id == source).ok_or_else(|| format!("no source {source} in {id}"))?;
        Ok(self.dir(id)?.join(&recorded.file))
    }

    pub fn delete(&self, id: &str) -> Result<(), String> {
        let dir = self.dir(id)?;
        fs::remove_dir_all(&dir).map_err(|error| format!("Could not delete the recording: {error}"))
    }

    pub fn set_summary(&self, id: &str, summary: SessionSummary) -> Result<(), String> {
        let dir = self.dir(id)?;
        let mut meta = read_meta(&dir.join(META))?;
        meta.summary = Some(summary);
        write_meta(&dir, &meta)
    }

    /// Starts a new session's folder.
    pub fn create(&self) -> Result<Session, String> {
        let id = new_session_id();
        let dir = self.dir(&id)?;
        fs::create_dir_all(&dir).map_err(|error| format!("Could not create {}: {error}", dir.display()))?;
        let now = now_ms();
        let meta = SessionMeta {
            format: "hitscope.desktop-session".into(),
            version: 1,
            id,
            started_at: now,
            updated_at: now,
            sources: Vec::new(),
            summary: None,
        };
        write_meta(&dir, &meta)?;
        Ok(Session { dir, meta: Arc::new(Mutex::new(MetaState { meta, written: Instant::now() })) })
    }
}

fn read_meta(path: &Path) -> Result<SessionMeta, String> {
    let text = fs::read_to_string(path).map_err(|error| format!("Could not read {}: {error}", path.display()))?;
    serde_json::from_str(&text).map_err(|error| format!("{} is damaged: {error}", path.display()))
}

fn write_meta(dir: &Path, meta: &SessionMeta) -> Result<(), String> {
    let temporary = dir.join(format!("{META}.tmp"));
    let text = serde_json::to_vec_pretty(meta).map_err(|error| error.to_string())?;
    fs::write(&temporary, text).and_then(|_| fs::rename(&temporary, dir.join(META))).map_err(|error| format!("Could not save the recording: {error}"))
}

struct MetaState {
    meta: SessionMeta,
    written: Instant,
}

/// The session being recorded.
#[derive(Clone)]
pub struct Session {
    dir: PathBuf,
    meta: Arc<Mutex<MetaState>>,
}

impl Session {
    pub fn id(&self) -> String {
        self.meta.lock().unwrap().meta.id.clone()
    }

    /// Adds a source to the session and returns where its lines go.
    pub fn add_source(&self, id: &str, spec: &SourceSpec) -> Result<SourceRecording, String> {
        if !is_source_id(id) {
            return Err(format!("bad source id {id}"));
        }
        let file_name = format!("{id}.log");
        let path = self.dir.join(&file_name);
        let file = OpenOptions::new().create(true).append(true).open(&path).map_err(|error| format!("Could not record to {}: {error}", path.display()))?;
        let address = match spec {
            SourceSpec::Android { serial, .. } => serial.clone(),
            SourceSpec::Ios { udid, .. } | SourceSpec::Simulator { udid, .. } => udid.clone(),
            SourceSpec::File { path } => path.clone(),
        };
        {
            let mut state = self.meta.lock().unwrap();
            state.meta.sources.push(RecordedSource {
                id: id.to_string(),
                label: spec.label(),
                kind: spec.kind().to_string(),
                platform: spec.platform().map(String::from),
                address,
                file: file_name,
                lines: 0,
                bytes: 0,
                started_at: now_ms(),
                apps: BTreeMap::new(),
            });
            state.meta.updated_at = now_ms();
            write_meta(&self.dir, &state.meta)?;
            state.written = Instant::now();
        }
        Ok(SourceRecording { session: self.clone(), source: id.to_string(), writer: Some(BufWriter::with_capacity(64 * 1024, file)) })
    }

    fn update(&self, source: &str, force: bool, change: impl FnOnce(&mut RecordedSource)) {
        let mut state = self.meta.lock().unwrap();
        if let Some(recorded) = state.meta.sources.iter_mut().find(|each| each.id == source) {
            change(recorded);
        }
        state.meta.updated_at = now_ms();
        if force || state.written.elapsed() >= META_EVERY {
            let _ = write_meta(&self.dir, &state.meta);
            state.written = Instant::now();
        }
    }
}

/// One source's lines in the session: a `LineLog` the source writes to.
pub struct SourceRecording {
    session: Session,
    source: String,
    writer: Option<BufWriter<File>>,
}

impl LineLog for SourceRecording {
    fn lines(&mut self, lines: &[String]) {
        let Some(writer) = self.writer.as_mut() else { return };
        let mut bytes = 0u64;
        for line in lines {
            bytes += line.len() as u64 + 1;
            let _ = writer.write_all(line.as_bytes());
            let _ = writer.write_all(b"\n");
        }
        let _ = writer.flush();
        let count = lines.len() as u64;
        self.session.update(&self.source, false, |recorded| {
            recorded.lines += count;
            recorded.bytes += bytes;
        });
    }

    fn apps(&mut self, apps: &BTreeMap<String, String>) {
        let apps = apps.clone();
        self.session.update(&self.source, true, |recorded| recorded.apps = apps);
    }

    fn close(&mut self) {
        if let Some(mut writer) = self.writer.take() {
            let _ = writer.flush();
        }
        self.session.update(&self.source, true, |_| {});
    }
}

impl Drop for SourceRecording {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_lines_and_reads_them_back() {
        let root = tempfile::tempdir().unwrap();
        let library = Library::new(root.path().to_path_buf());
        let session = library.create().unwrap();
        let spec = SourceSpec::Android { serial: "emulator-5554".into(), name: "Pixel 7".into() };
        let mut recording = session.add_source("s1", &spec).unwrap();
        recording.lines(&["a".into(), "b".into()]);
        recording.apps(&BTreeMap::from([("1234".to_string(), "com.example.shop".to_string())]));
        recording.close();
        let listed = library.list();
        assert_eq!(listed.len(), 1);
        let meta = &listed[0];
        assert_eq!(meta.sources[0].lines, 2);
        assert_eq!(meta.sources[0].label, "Pixel 7");
        assert_eq!(meta.sources[0].apps.get("1234").map(String::as_str), Some("com.example.shop"));
        let path = library.source_path(&meta.id, "s1").unwrap();
        assert_eq!(fs::read_to_string(path).unwrap(), "a\nb\n");
    }

    #[test]
    fn refuses_ids_that_are_paths() {
        let root = tempfile::tempdir().unwrap();
        let library = Library::new(root.path().to_path_buf());
        assert!(library.get("../etc").is_err());
        assert!(library.delete("..").is_err());
        assert!(is_session_id("1714557600000-0a1b2c3d"));
        assert!(!is_session_id("1714557600000-0a1b2c3d/.."));
    }
}
