//! The app's settings (`settings.json` in its config folder): the Hitscope site it talks to, where
//! adb is, the update channel and the colour mode.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The site a build talks to unless the person changes it: set when the build is made
/// (`HITSCOPE_SITE_URL`), else a Hitscope started with `npm start` on this machine.
pub const DEFAULT_SITE_URL: &str = match option_env!("HITSCOPE_SITE_URL") {
    Some(url) => url,
    None => "http://localhost:3000",
};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub site_url: String,
    /// A path to adb when it is not on PATH or in the SDK's usual places.
    pub adb_path: Option<String>,
    /// `stable` or `beta`.
    pub update_channel: String,
    /// `system`, `light` or `dark`.
    pub color_mode: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            site_url: DEFAULT_SITE_URL.to_string(),
            adb_path: None,
            update_channel: "stable".into(),
            color_mode: "system".into(),
        }
    }
}

impl Settings {
    /// Checks and normalises what the window sends; an error names the field.
    pub fn validated(mut self) -> Result<Self, String> {
        self.site_url = normalise_site_url(&self.site_url).map_err(|error| format!("Site address: {error}"))?;
        self.adb_path = self.adb_path.map(|path| path.trim().to_string()).filter(|path| !path.is_empty());
        if let Some(path) = &self.adb_path {
            if !Path::new(path).is_absolute() {
                return Err("Path to adb: give the full path (for example /opt/android-sdk/platform-tools/adb)".into());
            }
        }
        if !["stable", "beta"].contains(&self.update_channel.as_str()) {
            return Err("Update channel: stable or beta".into());
        }
        if !["system", "light", "dark"].contains(&self.color_mode.as_str()) {
            return Err("Colour mode: system, light or dark".into());
        }
        Ok(self)
    }
}

/// `https://host[:port][/path]` without a trailing slash. Plain `http` only for this machine: the
/// licence key travels in these requests.
pub fn normalise_site_url(input: &str) -> Result<String, String> {
    let url = input.trim().trim_end_matches('/');
    let (scheme, rest) = url.split_once("://").ok_or("start with https://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Err("start with https://".into());
    }
    if rest.contains(['?', '#', '@', ' ', '\\']) {
        return Err("give only the site's address, without a query, fragment or user name".into());
    }
    let authority = rest.split('/').next().unwrap_or("");
    let host = if authority.starts_with('[') {
        authority.split(']').next().map(|host| format!("{host}]")).unwrap_or_default()
    } else {
        authority.split(':').next().unwrap_or("").to_ascii_lowercase()
    };
    if host.is_empty() || host == "[]" {
        return Err("a host is missing".into());
    }
    if let Some(port) = authority.strip_prefix(&host).and_then(|rest| rest.strip_prefix(':')) {
        if port.parse::<u16>().map_or(true, |port| port == 0) {
            return Err("the port is not a number from 1 to 65535".into());
        }
    }
    let loopback = host == "localhost" || host == "127.0.0.1" || host == "[::1]";
    if scheme == "http" && !loopback {
        return Err("use https:// (plain http:// only for localhost)".into());
    }
    Ok(format!("{scheme}://{rest}"))
}

pub fn load(path: &Path) -> Settings {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Settings>(&text).ok())
        .and_then(|settings| settings.validated().ok())
        .unwrap_or_default()
}

pub fn save(path: &PathBuf, settings: &Settings) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|error| error.to_string())?;
    }
    let text = serde_json::to_vec_pretty(settings).map_err(|error| error.to_string())?;
    let temporary = path.with_extension("json.tmp");
    fs::write(&temporary, text).and_then(|_| fs::rename(&temporary, path)).map_err(|error| format!("Could not save the settings: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_site_addresses() {
        assert_eq!(normalise_site_url(" https://hitscope.example.com/ ").unwrap(), "https://hitscope.example.com");
        assert_eq!(normalise_site_url("http://127.0.0.1:4106").unwrap(), "http://127.0.0.1:4106");
        assert_eq!(normalise_site_url("https://example.com/hitscope").unwrap(), "https://example.com/hitscope");
        assert!(normalise_site_url("http://example.com").is_err(), "plain http to another machine");
        assert!(normalise_site_url("ftp://example.com").is_err());
        assert!(normalise_site_url("https://user@example.com").is_err());
        assert!(normalise_site_url("https://example.com:99999").is_err());
        assert!(normalise_site_url("example.com").is_err());
    }

    #[test]
    fn refuses_a_relative_adb_path_and_an_unknown_channel() {
        let relative = Settings { adb_path: Some("adb".into()), ..Settings::default() };
        assert!(relative.validated().unwrap_err().starts_with("Path to adb"));
        let channel = Settings { update_channel: "nightly".into(), ..Settings::default() };
        assert!(channel.validated().unwrap_err().starts_with("Update channel"));
    }
}
