//! The device list: Android devices and emulators (`adb devices -l`), iOS devices (`idevice_id`)
//! and, on macOS, booted iOS simulators (`xcrun simctl list devices booted -j`). One scan is cheap
//! (one short command per kind); the app scans every second and shows changes at once, so a device
//! never silently vanishes from the list.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::tools::{run, RunError, ToolEnv};

/// Short commands answer within this; longer means a wedged adb server or usbmuxd.
pub const QUICK: Duration = Duration::from_secs(8);

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Android,
    Ios,
}

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    Phone,
    Emulator,
    Simulator,
}

/// What can be done with a device right now.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceState {
    Ready,
    /// Android: the phone shows "Allow USB debugging?" and nobody accepted it yet.
    Unauthorized,
    Offline,
    /// Linux: the USB device is not accessible to this user (udev rules).
    NoPermissions,
    /// iOS: the phone has not trusted this computer (unlock it and tap Trust).
    Untrusted,
    Other,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    /// `android:<serial>`, `ios:<udid>`, `simulator:<udid>`: stable while the device is plugged in.
    pub id: String,
    pub platform: Platform,
    pub kind: DeviceKind,
    /// What the tool needs to address it (adb serial, UDID).
    pub serial: String,
    pub name: String,
    pub state: DeviceState,
    /// The tool's own words for a state that is not `ready`.
    pub detail: Option<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct ToolStatus {
    /// Where it was found; None when it is not installed (or not where we look).
    pub path: Option<String>,
    /// The tool exists but failed (adb server could not start, usbmuxd not running …).
    pub error: Option<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct Tools {
    pub adb: ToolStatus,
    /// `idevice_id` and `idevicesyslog` (libimobiledevice).
    pub ios: ToolStatus,
    /// `xcrun simctl`: macOS with Xcode only; None elsewhere.
    pub simctl: Option<ToolStatus>,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct DeviceList {
    pub devices: Vec<Device>,
    pub tools: Tools,
}

/// Tool locations for one scan, resolved from the settings and the environment.
#[derive(Clone, Debug, Default)]
pub struct ToolPaths {
    pub adb: Option<PathBuf>,
    pub idevice_id: Option<PathBuf>,
    pub idevicesyslog: Option<PathBuf>,
    pub xcrun: Option<PathBuf>,
}

impl ToolPaths {
    pub fn resolve(env: &ToolEnv, adb_setting: Option<&Path>) -> Self {
        ToolPaths {
            adb: env.find("adb", adb_setting),
            idevice_id: env.find("idevice_id", None),
            idevicesyslog: env.find("idevicesyslog", None),
            // Simulators exist only where Xcode does.
            xcrun: if cfg!(target_os = "macos") { env.find("xcrun", None) } else { None },
        }
    }
}

/// `adb devices -l`:
/// ```text
/// List of devices attached
/// emulator-5554   device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1
/// R58M12345AB     unauthorized usb:1-1 transport_id:2
/// ```
pub fn parse_adb_devices(output: &str) -> Vec<Device> {
    let mut devices = Vec::new();
    for line in output.lines() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with("List of devices") || line.starts_with('*') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let Some(serial) = parts.next() else { continue };
        let rest: Vec<&str> = parts.collect();
        let Some(first) = rest.first() else { continue };
        let (state, detail) = match *first {
            "device" => (DeviceState::Ready, None),
            "unauthorized" => (
                DeviceState::Unauthorized,
                Some("Unlock the phone and accept \u{201c}Allow USB debugging?\u{201d}".to_string()),
            ),
            "offline" => (DeviceState::Offline, Some("adb sees the device but cannot talk to it yet".to_string())),
            "no" if rest.get(1) == Some(&"permissions") => {
                let text = rest.iter().take_while(|word| !word.contains(':') || word.starts_with('(')).copied();
                (DeviceState::NoPermissions, Some(text.collect::<Vec<_>>().join(" ")))
            }
            other => (DeviceState::Other, Some(other.to_string())),
        };
        let field = |key: &str| rest.iter().find_map(|word| word.strip_prefix(key)).map(|value| value.replace('_', " "));
        let emulator = serial.starts_with("emulator-")
            || field("product:").is_some_and(|product| product.starts_with("sdk ") || product.contains("emulator"));
        let name = field("model:").unwrap_or_else(|| serial.to_string());
        devices.push(Device {
            id: format!("android:{serial}"),
            platform: Platform::Android,
            kind: if emulator { DeviceKind::Emulator } else { DeviceKind::Phone },
            serial: serial.to_string(),
            name,
            state,
            detail,
        });
    }
    devices
}

/// The Android devices, or the tool's error.
pub fn scan_android(adb: &Path) -> Result<Vec<Device>, String> {
    match run(adb, &["devices", "-l"], QUICK) {
        Ok(output) if output.success() => Ok(parse_adb_devices(&output.stdout)),
        Ok(output) => Err(format!("adb devices failed: {}", output.message())),
        Err(RunError::Timeout) => Err("adb devices did not answer within 8 s (restart the adb server: adb kill-server)".into()),
        Err(error) => Err(format!("adb {error}")),
    }
}

/// iOS devices attached by USB. Names are asked once per device (`idevice_id <udid>`), which fails
/// while the phone has not trusted this computer.
pub fn scan_ios(idevice_id: &Path, names: &mut HashMap<String, Result<String, String>>) -> Result<Vec<Device>, String> {
    let output = match run(idevice_id, &["-l"], QUICK) {
        Ok(output) if output.success() => output,
        Ok(output) => {
            let message = output.message();
            // No usbmuxd (Linux without the daemon running) reads as "no devices", not as an error.
            if message.contains("Unable to retrieve device list") || message.contains("usbmuxd") {
                return Ok(Vec::new());
            }
            return Err(format!("idevice_id failed: {message}"));
        }
        Err(error) => return Err(format!("idevice_id {error}")),
    };
    let mut devices = Vec::new();
    for udid in output.stdout.lines().map(str::trim).filter(|line| !line.is_empty()) {
        let udid = udid.split_whitespace().next().unwrap_or(udid).to_string();
        let name = names
            .entry(udid.clone())
            .or_insert_with(|| match run(idevice_id, &[udid.as_str()], QUICK) {
                Ok(output) if output.success() && !output.stdout.trim().is_empty() => Ok(output.stdout.trim().to_string()),
                Ok(output) => Err(output.message()),
                Err(error) => Err(error.to_string()),
            })
            .clone();
        let (state, detail, name) = match name {
            Ok(name) => (DeviceState::Ready, None, name),
            Err(message) => (
                DeviceState::Untrusted,
                Some(format!("Unlock the iPhone and tap \u{201c}Trust\u{201d} ({message})")),
                "iPhone".to_string(),
            ),
        };
        devices.push(Device {
            id: format!("ios:{udid}"),
            platform: Platform::Ios,
            kind: DeviceKind::Phone,
            serial: udid,
            name,
            state,
            detail,
        });
    }
    // A device that was not trusted is asked again on the next scan.
    names.retain(|_, name| name.is_ok());
    Ok(devices)
}

/// `xcrun simctl list devices booted -j`: `{ "devices": { "<runtime>": [ { "udid", "name", "state" } ] } }`.
pub fn parse_simctl(json: &str) -> Result<Vec<Device>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|error| format!("simctl answered something unexpected: {error}"))?;
    let mut devices = Vec::new();
    if let Some(runtimes) = value.get("devices").and_then(|devices| devices.as_object()) {
        for (runtime, list) in runtimes {
            // "com.apple.CoreSimulator.SimRuntime.iOS-17-5" → "iOS 17.5"
            let version = runtime.rsplit('.').next().unwrap_or("").replacen('-', " ", 1).replace('-', ".");
            for device in list.as_array().into_iter().flatten() {
                let booted = device.get("state").and_then(|state| state.as_str()) == Some("Booted");
                let (Some(udid), Some(name)) = (device.get("udid").and_then(|v| v.as_str()), device.get("name").and_then(|v| v.as_str())) else {
                    continue;
                };
                if !booted {
                    continue;
                }
                devices.push(Device {
                    id: format!("simulator:{udid}"),
                    platform: Platform::Ios,
                    kind: DeviceKind::Simulator,
                    serial: udid.to_string(),
                    name: if version.is_empty() { name.to_string() } else { format!("{name} ({version})") },
                    state: DeviceState::Ready,
                    detail: None,
                });
            }
        }
    }
    Ok(devices)
}

pub fn scan_simulators(xcrun: &Path) -> Result<Vec<Device>, String> {
    match run(xcrun, &["simctl", "list", "devices", "booted", "-j"], QUICK) {
        Ok(output) if output.success() => parse_simctl(&output.stdout),
        Ok(output) => Err(format!("xcrun simctl failed: {}", output.message())),
        Err(error) => Err(format!("xcrun simctl {error}")),
    }
}

/// One scan of everything. `names` caches iOS device names between scans.
pub fn scan(paths: &ToolPaths, names: &mut HashMap<String, Result<String, String>>) -> DeviceList {
    let mut list = DeviceList::default();
    let text = |path: &Option<PathBuf>| path.as_ref().map(|path| path.display().to_string());
    list.tools.adb.path = text(&paths.adb);
    if let Some(adb) = &paths.adb {
        match scan_android(adb) {
            Ok(devices) => list.devices.extend(devices),
            Err(error) => list.tools.adb.error = Some(error),
        }
    }
    // Both are needed: one lists devices, the other streams their log.
    list.tools.ios.path = match (&paths.idevice_id, &paths.idevicesyslog) {
        (Some(_), Some(syslog)) => Some(syslog.display().to_string()),
        _ => None,
    };
    if let (Some(idevice_id), Some(_)) = (&paths.idevice_id, &paths.idevicesyslog) {
        match scan_ios(idevice_id, names) {
            Ok(devices) => list.devices.extend(devices),
            Err(error) => list.tools.ios.error = Some(error),
        }
    }
    if cfg!(target_os = "macos") {
        let mut status = ToolStatus { path: text(&paths.xcrun), error: None };
        if let Some(xcrun) = &paths.xcrun {
            match scan_simulators(xcrun) {
                Ok(devices) => list.devices.extend(devices),
                Err(error) => status.error = Some(error),
            }
        }
        list.tools.simctl = Some(status);
    }
    list
}

/// The state of one Android device now: None when adb does not list it (unplugged).
pub fn android_state(adb: &Path, serial: &str) -> Result<Option<Device>, String> {
    Ok(scan_android(adb)?.into_iter().find(|device| device.serial == serial))
}

/// Whether an iOS device is attached now.
pub fn ios_attached(idevice_id: &Path, udid: &str) -> Result<bool, String> {
    match run(idevice_id, &["-l"], QUICK) {
        Ok(output) if output.success() => Ok(output.stdout.lines().any(|line| line.trim() == udid)),
        Ok(output) => Err(output.message()),
        Err(error) => Err(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_adb_devices_long_form() {
        let output = "* daemon not running; starting now at tcp:5037\n* daemon started successfully\nList of devices attached\n\
emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n\
R58M12345AB            unauthorized usb:1-1 transport_id:2\n\
0A1B2C3D               device usb:1-2 product:panther model:Pixel_7 device:panther transport_id:3\n\
ZX1G22                 no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-3 transport_id:4\n\
9B1C                   offline transport_id:5\n\n";
        let devices = parse_adb_devices(output);
        assert_eq!(devices.len(), 5);
        assert_eq!(devices[0].kind, DeviceKind::Emulator);
        assert_eq!(devices[0].state, DeviceState::Ready);
        assert_eq!(devices[1].state, DeviceState::Unauthorized);
        assert_eq!(devices[1].name, "R58M12345AB");
        assert_eq!(devices[2].name, "Pixel 7");
        assert_eq!(devices[2].kind, DeviceKind::Phone);
        assert_eq!(devices[2].id, "android:0A1B2C3D");
        assert_eq!(devices[3].state, DeviceState::NoPermissions);
        assert!(devices[3].detail.as_deref().unwrap().starts_with("no permissions (missing udev rules?"));
        assert_eq!(devices[4].state, DeviceState::Offline);
    }

    #[test]
    fn an_empty_list_is_no_device() {
        assert!(parse_adb_devices("List of devices attached\n\n").is_empty());
    }

    #[test]
    fn reads_booted_simulators() {
        let json = r#"{"devices":{"com.apple.CoreSimulator.SimRuntime.iOS-17-5":[
            {"udid":"A1B2","name":"iPhone 15","state":"Booted","isAvailable":true},
            {"udid":"C3D4","name":"iPhone SE","state":"Shutdown"}]}}"#;
        let devices = parse_simctl(json).unwrap();
        assert_eq!(devices.len(), 1);
        assert_eq!(devices[0].id, "simulator:A1B2");
        assert_eq!(devices[0].name, "iPhone 15 (iOS 17.5)");
        assert_eq!(devices[0].kind, DeviceKind::Simulator);
    }
}
