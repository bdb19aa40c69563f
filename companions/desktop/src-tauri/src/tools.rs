//! Finding and running the command-line tools the sources need (`adb`, `idevice_id`,
//! `idevicesyslog`, `xcrun`), with a deadline, without a console window on Windows, and with errors
//! a person can act on.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Where tools are looked for. Built from the process environment in the app and by hand in tests,
/// so a test decides exactly which `adb` exists (this machine has a real one in /usr/bin).
#[derive(Clone, Debug, Default)]
pub struct ToolEnv {
    /// The PATH to search.
    pub path: Option<OsString>,
    /// Home directory, for the SDK's default install places.
    pub home: Option<PathBuf>,
    /// `ANDROID_HOME` / `ANDROID_SDK_ROOT`.
    pub android_sdk: Vec<PathBuf>,
    /// Windows' `%LOCALAPPDATA%`.
    pub local_app_data: Option<PathBuf>,
    /// Search the fixed install places (/opt/homebrew/bin …). Off in tests.
    pub system_places: bool,
}

impl ToolEnv {
    pub fn from_process() -> Self {
        let sdk = ["ANDROID_HOME", "ANDROID_SDK_ROOT"]
            .iter()
            .filter_map(std::env::var_os)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .collect();
        ToolEnv {
            path: std::env::var_os("PATH"),
            home: std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")).map(PathBuf::from),
            android_sdk: sdk,
            local_app_data: std::env::var_os("LOCALAPPDATA").map(PathBuf::from),
            system_places: true,
        }
    }

    /// Places beyond PATH where `name` is usually installed. An app started from the desktop (a
    /// launcher, the Dock, the Start menu) often has a PATH without the Android SDK or Homebrew.
    fn usual_places(&self, name: &str) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        if name == "adb" {
            for sdk in &self.android_sdk {
                dirs.push(sdk.join("platform-tools"));
            }
            if let Some(home) = &self.home {
                dirs.push(home.join("Android/Sdk/platform-tools"));
                dirs.push(home.join("Library/Android/sdk/platform-tools"));
            }
            if let Some(local) = &self.local_app_data {
                dirs.push(local.join("Android\\Sdk\\platform-tools"));
            }
        }
        if self.system_places {
            for dir in ["/opt/homebrew/bin", "/usr/local/bin", "/usr/bin"] {
                dirs.push(PathBuf::from(dir));
            }
        }
        dirs
    }

    /// The tool to run: the configured path if it is a file, else the first `name` on PATH, else in
    /// the usual places. None when it is nowhere.
    pub fn find(&self, name: &str, configured: Option<&Path>) -> Option<PathBuf> {
        if let Some(path) = configured {
            return is_executable(path).then(|| path.to_path_buf());
        }
        let file = executable_name(name);
        let on_path = self.path.as_deref().map(std::env::split_paths).into_iter().flatten();
        on_path
            .chain(self.usual_places(name))
            .map(|dir| dir.join(&file))
            .find(|candidate| is_executable(candidate))
    }
}

fn executable_name(name: &str) -> OsString {
    if cfg!(windows) {
        OsString::from(format!("{name}.exe"))
    } else {
        OsString::from(name)
    }
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// A command for `program` with no console window on Windows and no stdin.
pub fn command(program: &Path, args: &[impl AsRef<OsStr>]) -> Command {
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::null());
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        const CREATE_NO_WINDOW: u32 = 0x0800_0000;
        command.creation_flags(CREATE_NO_WINDOW);
    }
    command
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn success(&self) -> bool {
        self.status == Some(0)
    }
    /// stderr, else stdout, trimmed: what the tool said when it failed.
    pub fn message(&self) -> String {
        let text = if self.stderr.trim().is_empty() { &self.stdout } else { &self.stderr };
        text.trim().to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The program could not be started (it vanished, or is not executable).
    Spawn(String),
    /// No answer within the deadline: the process was killed.
    Timeout,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(message) => write!(f, "could not start: {message}"),
            RunError::Timeout => write!(f, "did not answer in time"),
        }
    }
}

/// Runs a short command and collects its output; kills it after `deadline`. (A wedged adb server
/// must not freeze the device list.)
pub fn run(program: &Path, args: &[&str], deadline: Duration) -> Result<Output, RunError> {
    let mut child = command(program, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| RunError::Spawn(error.to_string()))?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if started.elapsed() >= deadline => {
                kill(&mut child);
                return Err(RunError::Timeout);
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(error) => return Err(RunError::Spawn(error.to_string())),
        }
    };
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Ends a child and reaps it.
pub fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_tool_on_path_and_nothing_when_it_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let adb = dir.path().join("adb");
        std::fs::write(&adb, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&adb, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let env = ToolEnv { path: Some(dir.path().as_os_str().to_owned()), ..ToolEnv::default() };
        assert_eq!(env.find("adb", None), Some(adb.clone()));
        let empty = tempfile::tempdir().unwrap();
        let none = ToolEnv { path: Some(empty.path().as_os_str().to_owned()), ..ToolEnv::default() };
        assert_eq!(none.find("adb", None), None);
    }

    #[test]
    fn finds_adb_in_the_sdk_when_path_lacks_it() {
        let sdk = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(sdk.path().join("platform-tools")).unwrap();
        let adb = sdk.path().join("platform-tools/adb");
        std::fs::write(&adb, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&adb, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let env = ToolEnv { android_sdk: vec![sdk.path().to_path_buf()], ..ToolEnv::default() };
        assert_eq!(env.find("adb", None), Some(adb));
    }

    #[test]
    fn a_configured_path_that_is_not_a_program_is_not_found() {
        let env = ToolEnv::default();
        assert_eq!(env.find("adb", Some(Path::new("/nonexistent/adb"))), None);
    }

    #[cfg(unix)]
    #[test]
    fn kills_a_command_that_does_not_answer() {
        let started = Instant::now();
        let result = run(Path::new("/bin/sleep"), &["5"], Duration::from_millis(200));
        assert_eq!(result, Err(RunError::Timeout));
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}
