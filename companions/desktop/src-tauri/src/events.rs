//! What the back end tells the window, in order, through one channel the window subscribes to
//! (`subscribe`): log lines in batches, source states, app names, the device list.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::devices::DeviceList;

/// Where a source stands. The waiting states keep the source alive: it resumes by itself when the
/// device comes back or the prompt is accepted.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SourceState {
    /// Checking the device before streaming.
    Starting,
    Streaming,
    /// Android: "Allow USB debugging?" not accepted yet; iOS: the phone does not trust this computer.
    Unauthorized,
    /// The device went away while streaming; what it logged so far is kept.
    Unplugged,
    /// The device was not attached when the source started.
    NotConnected,
    /// adb (or idevicesyslog, xcrun) is not installed or not where it was configured.
    ToolMissing,
    /// The tool keeps failing; the message says how.
    Failed,
    /// A file or a recording has been read to its end.
    Ended,
    Stopped,
}

impl SourceState {
    pub fn is_final(self) -> bool {
        matches!(self, SourceState::ToolMissing | SourceState::Failed | SourceState::Ended | SourceState::Stopped)
    }
}

#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// Raw lines of one source, in order.
    Lines { source: String, lines: Vec<String> },
    State { source: String, state: SourceState, message: Option<String> },
    /// Android: the process name of each pid seen so far (so events are labelled with their app).
    Apps { source: String, apps: BTreeMap<String, String> },
    /// Android: the package Firebase debug mode is on for on this source's device, or null.
    DebugMode { source: String, package: Option<String> },
    Devices { list: DeviceList },
}

pub type Sink = Arc<dyn Fn(Event) + Send + Sync>;
