//! Hitscope for Apps: the back end of the window. It finds devices, runs the tools that stream their
//! logs, records every session on disk, keeps the settings and the licence, talks to the site and
//! verifies updates. Decoding happens in the window, with the same decoder as the web analyser
//! (lib/tools/applog): one decoder, never a copy.

pub mod android;
pub mod devices;
pub mod events;
pub mod machine;
pub mod recordings;
pub mod settings;
pub mod site;
pub mod sources;
pub mod tools;
pub mod updates;

// The window's shell (Tauri commands, the app's state and its run loop). A feature, on by default,
// so the process tests build without Tauri, GTK and WebKitGTK: `cargo test --no-default-features`
// compiles a sixth of the dependencies (docs/desktop-app.md, Tests).
#[cfg(feature = "app")]
mod app;
#[cfg(feature = "app")]
pub use app::run;
