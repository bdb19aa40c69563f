fn main() {
    // The window's build step (its config and assets) only when the app is built: the process tests
    // build without Tauri (the `app` feature).
    #[cfg(feature = "app")]
    tauri_build::build()
}
