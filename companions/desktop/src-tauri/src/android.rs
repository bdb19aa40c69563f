//! The adb commands besides the log stream: installed packages, Firebase debug mode
//! (`debug.firebase.analytics.app`) and which app a process id belongs to.
//!
//! `adb shell` hands its arguments to a shell on the phone, so every value put into one is checked
//! first (a package name, a pid): a crafted name must not run commands on the device.

use std::path::Path;
use std::time::Duration;

use crate::tools::run;

const DEBUG_PROPERTY: &str = "debug.firebase.analytics.app";
/// The value Firebase's documentation gives to turn debug mode off again.
const DEBUG_OFF: &str = ".none.";
const SHELL: Duration = Duration::from_secs(10);

/// An Android application id: two or more dot-separated segments of letters, digits and underscores,
/// each starting with a letter (what `applicationId` allows).
pub fn is_package_name(name: &str) -> bool {
    let mut segments = 0;
    for segment in name.split('.') {
        let mut chars = segment.chars();
        let Some(first) = chars.next() else { return false };
        if !first.is_ascii_alphabetic() || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        segments += 1;
    }
    segments >= 2 && name.len() <= 255
}

fn shell(adb: &Path, serial: &str, command: &[&str]) -> Result<String, String> {
    let mut args = vec!["-s", serial, "shell"];
    args.extend_from_slice(command);
    match run(adb, &args, SHELL) {
        Ok(output) if output.success() => Ok(output.stdout),
        Ok(output) => Err(output.message()),
        Err(error) => Err(format!("adb {error}")),
    }
}

/// The packages installed by the user (`pm list packages -3`), sorted.
pub fn installed_packages(adb: &Path, serial: &str) -> Result<Vec<String>, String> {
    let output = shell(adb, serial, &["pm", "list", "packages", "-3"])?;
    let mut packages: Vec<String> = output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("package:"))
        .map(str::to_string)
        .filter(|name| is_package_name(name))
        .collect();
    packages.sort();
    packages.dedup();
    Ok(packages)
}

/// The package Firebase debug mode is on for, or None when it is off.
pub fn debug_app(adb: &Path, serial: &str) -> Result<Option<String>, String> {
    let value = shell(adb, serial, &["getprop", DEBUG_PROPERTY])?;
    let value = value.trim();
    Ok((!value.is_empty() && value != DEBUG_OFF).then(|| value.to_string()))
}

/// Turns debug mode on for `package` (events are sent at once and shown in DebugView, and the SDK
/// logs them verbosely), or off with None. Checks that the device took the value.
pub fn set_debug_app(adb: &Path, serial: &str, package: Option<&str>) -> Result<(), String> {
    let value = match package {
        Some(name) if is_package_name(name) => name,
        Some(name) => return Err(format!("\u{201c}{name}\u{201d} is not an Android package name")),
        None => DEBUG_OFF,
    };
    shell(adb, serial, &["setprop", DEBUG_PROPERTY, value])?;
    if package.is_some() {
        // The SDK logs events at VERBOSE only when these tags allow it (Firebase's DebugView guide).
        shell(adb, serial, &["setprop", "log.tag.FA", "VERBOSE"])?;
        shell(adb, serial, &["setprop", "log.tag.FA-SVC", "VERBOSE"])?;
    }
    let now = debug_app(adb, serial)?;
    if now.as_deref() != package {
        return Err(format!(
            "the device kept {DEBUG_PROPERTY}={} instead of {value}",
            now.as_deref().unwrap_or(DEBUG_OFF)
        ));
    }
    Ok(())
}

/// The process name of `pid` (an app's package, or a Play services process), None for a process that
/// has ended.
pub fn process_name(adb: &Path, serial: &str, pid: &str) -> Option<String> {
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let path = format!("/proc/{pid}/cmdline");
    let output = shell(adb, serial, &["cat", path.as_str()]).ok()?;
    let name = output.split('\0').next().unwrap_or("").trim();
    (!name.is_empty() && !name.contains(' ') && !name.contains("No such file")).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_package_names_and_refuses_shell_text() {
        assert!(is_package_name("com.example.shop"));
        assert!(is_package_name("io.flutter_app.demo2"));
        assert!(!is_package_name("shop"));
        assert!(!is_package_name("com.example;reboot"));
        assert!(!is_package_name("com.example shop"));
        assert!(!is_package_name("com..example"));
        assert!(!is_package_name("com.1example"));
        assert!(!is_package_name("$(reboot).x"));
    }
}
