//! Requests to the Hitscope site, made here rather than by the window: the window's origin
//! (`tauri://localhost`) is not one the site's API allows, and doing it here limits what the window
//! can reach to the few paths of the licensing and releases APIs on the configured site.

use std::io::Read;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What the window may ask for, by path prefix.
const ALLOWED: [&str; 3] = ["/api/v1/licenses/", "/api/v1/releases/", "/.well-known/hitscope-licensing-keys.json"];
const TIMEOUT: Duration = Duration::from_secs(20);
/// An answer of the APIs above is small; a larger one is not theirs.
const MAX_BODY: u64 = 2 * 1024 * 1024;

#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SiteRequest {
    pub method: String,
    /// A path on the site, with its query.
    pub path: String,
    pub body: Option<String>,
    pub content_type: Option<String>,
    pub authorization: Option<String>,
}

#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SiteResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub retry_after: Option<String>,
    pub body: String,
}

pub fn check_path(path: &str) -> Result<(), String> {
    if !path.starts_with('/') || path.contains("..") || path.contains('\\') || path.contains('#') {
        return Err(format!("not a site path: {path}"));
    }
    if !ALLOWED.iter().any(|prefix| path.starts_with(prefix)) {
        return Err(format!("the app does not call {path}"));
    }
    Ok(())
}

pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .user_agent(concat!("HitscopeForApps/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

/// Sends one request. An error (no connection, timeout, TLS) means "offline" to the licence client.
pub fn request(site_url: &str, request: SiteRequest) -> Result<SiteResponse, String> {
    check_path(&request.path)?;
    let url = format!("{site_url}{}", request.path);
    let agent = agent(TIMEOUT);
    let result = match request.method.as_str() {
        "GET" => {
            let mut builder = agent.get(&url);
            if let Some(value) = &request.authorization {
                builder = builder.header("Authorization", value);
            }
            builder.header("Accept", "application/json").call()
        }
        "POST" => {
            let mut builder = agent.post(&url);
            if let Some(value) = &request.authorization {
                builder = builder.header("Authorization", value);
            }
            builder
                .header("Accept", "application/json")
                .header("Content-Type", request.content_type.as_deref().unwrap_or("application/json"))
                .send(request.body.unwrap_or_default())
        }
        other => return Err(format!("method {other} is not used")),
    };
    let mut response = result.map_err(|error| plain(&error))?;
    let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(String::from);
    let content_type = header("content-type");
    let retry_after = header("retry-after");
    let status = response.status().as_u16();
    let mut body = String::new();
    response
        .body_mut()
        .as_reader()
        .take(MAX_BODY)
        .read_to_string(&mut body)
        .map_err(|error| format!("the answer was cut off ({error})"))?;
    Ok(SiteResponse { status, content_type, retry_after, body })
}

/// Why the site could not be asked, in words: the licence screen shows it after "The site could
/// not be reached", so "Connection refused (os error 111)" becomes what to check.
fn plain(error: &ureq::Error) -> String {
    use std::io::ErrorKind;
    match error {
        ureq::Error::Io(io) => match io.kind() {
            ErrorKind::ConnectionRefused => "nothing answers at the site's address: is it running, and is the address in Settings right?".into(),
            ErrorKind::TimedOut => format!("no answer within {} s", TIMEOUT.as_secs()),
            ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::UnexpectedEof => {
                "the connection was cut before the site answered".into()
            }
            _ => format!("network error: {io}"),
        },
        ureq::Error::Timeout(_) => format!("no answer within {} s", TIMEOUT.as_secs()),
        ureq::Error::HostNotFound => "the site's host name could not be found: check the address in Settings".into(),
        ureq::Error::ConnectionFailed => "no connection could be made to the site".into(),
        other => format!("network error: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_licensing_and_release_paths_are_reachable() {
        assert!(check_path("/api/v1/licenses/activate").is_ok());
        assert!(check_path("/api/v1/releases/latest?product=hitscope-for-apps").is_ok());
        assert!(check_path("/.well-known/hitscope-licensing-keys.json").is_ok());
        assert!(check_path("/api/admin/users").is_err());
        assert!(check_path("/api/v1/licenses/../../admin").is_err());
        assert!(check_path("https://evil.example/api/v1/licenses/").is_err());
    }

    #[test]
    fn a_site_that_is_not_running_is_said_in_words() {
        // A port nothing listens on: bound, then let go.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let error = request(
            &format!("http://127.0.0.1:{port}"),
            SiteRequest {
                method: "GET".into(),
                path: "/.well-known/hitscope-licensing-keys.json".into(),
                body: None,
                content_type: None,
                authorization: None,
            },
        )
        .unwrap_err();
        assert_eq!(error, "nothing answers at the site's address: is it running, and is the address in Settings right?");
    }
}
