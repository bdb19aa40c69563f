//! The machine's stable id, for the licence's device fingerprint (the window hashes it: the raw id
//! never leaves this computer). The operating system's own id where there is one, so reinstalling
//! the app keeps its seat; else a random id kept in the app's data folder.

use std::fs;
use std::path::Path;

use crate::tools::run;

#[derive(serde::Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct MachineId {
    pub id: String,
    /// `machine-id` (Linux), `IOPlatformUUID` (macOS), `MachineGuid` (Windows) or `generated`.
    pub source: String,
}

fn os_machine_id() -> Option<(String, &'static str)> {
    if cfg!(target_os = "linux") {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let Ok(text) = fs::read_to_string(path) {
                let id = text.trim();
                if id.len() >= 16 {
                    return Some((id.to_string(), "machine-id"));
                }
            }
        }
    }
    if cfg!(target_os = "macos") {
        let output = run(Path::new("/usr/sbin/ioreg"), &["-rd1", "-c", "IOPlatformExpertDevice"], std::time::Duration::from_secs(5)).ok()?;
        let line = output.stdout.lines().find(|line| line.contains("IOPlatformUUID"))?;
        let id = line.rsplit('"').nth(1)?.to_string();
        return (!id.is_empty()).then_some((id, "IOPlatformUUID"));
    }
    if cfg!(windows) {
        let output = run(
            Path::new("C:\\Windows\\System32\\reg.exe"),
            &["query", "HKLM\\SOFTWARE\\Microsoft\\Cryptography", "/v", "MachineGuid"],
            std::time::Duration::from_secs(5),
        )
        .ok()?;
        let id = output.stdout.lines().find(|line| line.contains("MachineGuid"))?.split_whitespace().last()?.to_string();
        return Some((id, "MachineGuid"));
    }
    None
}

pub fn machine_id(data_dir: &Path) -> MachineId {
    if let Some((id, source)) = os_machine_id() {
        return MachineId { id, source: source.into() };
    }
    let path = data_dir.join("device-id");
    if let Ok(text) = fs::read_to_string(&path) {
        if !text.trim().is_empty() {
            return MachineId { id: text.trim().to_string(), source: "generated".into() };
        }
    }
    let id = uuid::Uuid::new_v4().to_string();
    let _ = fs::create_dir_all(data_dir).and_then(|_| fs::write(&path, &id));
    MachineId { id, source: "generated".into() }
}
