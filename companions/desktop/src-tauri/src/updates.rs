//! Updates: download the build the site offers, check its SHA-256 against the update check's
//! answer and its Ed25519 signature (over the 32 bytes of that digest, docs/releases.md) against the
//! licensing keys, and only then offer it. Installing hands the verified package to the system's
//! installer after checking the file again; an unsigned or altered build is never opened.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::site;

#[derive(Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Jwk {
    pub kid: String,
    pub kty: String,
    pub crv: String,
    pub x: String,
}

#[derive(Deserialize, Clone, Debug)]
pub struct Jwks {
    pub keys: Vec<Jwk>,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseSignature {
    pub kid: String,
    pub value: String,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct DownloadRequest {
    /// The update check's `latest.url` (a path on the site).
    pub url: String,
    pub version: String,
    pub sha256: String,
    pub size: u64,
    pub signature: ReleaseSignature,
    /// The keys to verify with: the ones bundled with the build, refreshed from the site when the
    /// signature names a key the build does not know (the licence client's rule).
    pub jwks: Jwks,
    pub licence_key: Option<String>,
    /// `deb`, `rpm`, `dmg`, `msi` …: the package's extension.
    pub format: String,
}

#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedUpdate {
    pub path: String,
    pub version: String,
    pub sha256: String,
    pub kid: String,
}

/// Why an update was refused; the window shows `message`.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UpdateError {
    pub code: String,
    pub message: String,
}

fn error(code: &str, message: impl Into<String>) -> UpdateError {
    UpdateError { code: code.into(), message: message.into() }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Verifies an Ed25519 signature (base64url) over the 32-byte digest with the key `kid` of `jwks`.
pub fn verify_signature(digest: &[u8; 32], signature: &ReleaseSignature, jwks: &Jwks) -> Result<(), UpdateError> {
    let jwk = jwks
        .keys
        .iter()
        .find(|key| key.kid == signature.kid)
        .ok_or_else(|| error("unknown-key", format!("The build is signed with key {}, which this app does not know.", signature.kid)))?;
    if jwk.kty != "OKP" || jwk.crv != "Ed25519" {
        return Err(error("unknown-key", "The signing key is not an Ed25519 key."));
    }
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let key_bytes: [u8; 32] = b64
        .decode(jwk.x.trim_end_matches('='))
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| error("unknown-key", "The signing key is malformed."))?;
    let key = VerifyingKey::from_bytes(&key_bytes).map_err(|_| error("unknown-key", "The signing key is malformed."))?;
    let signature_bytes: [u8; 64] = b64
        .decode(signature.value.trim_end_matches('='))
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| error("bad-signature", "The build's signature is malformed."))?;
    key.verify(digest, &Signature::from_bytes(&signature_bytes))
        .map_err(|_| error("bad-signature", "The build's signature does not match: it was not signed by the site's key."))
}

fn sha256_file(path: &Path) -> std::io::Result<[u8; 32]> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher.finalize().into())
}

fn plain_name(text: &str) -> bool {
    !text.is_empty() && text.len() <= 64 && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"._+-".contains(&b)) && !text.contains("..")
}

/// Downloads and verifies. Nothing is kept of a build that fails a check.
pub fn download(site_url: &str, request: &DownloadRequest, dir: &Path) -> Result<(VerifiedUpdate, [u8; 32]), UpdateError> {
    site::check_path(&request.url).map_err(|message| error("bad-url", message))?;
    if !plain_name(&request.version) || !plain_name(&request.format) {
        return Err(error("bad-url", "The update check named an unexpected version or format."));
    }
    let expected = request.sha256.to_ascii_lowercase();
    if expected.len() != 64 || !expected.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(error("unsigned", "The update check gave no SHA-256 for the build."));
    }
    if request.signature.value.is_empty() || request.signature.kid.is_empty() {
        return Err(error("unsigned", "The build is not signed: it is not offered."));
    }
    fs::create_dir_all(dir).map_err(|e| error("download-failed", e.to_string()))?;
    let final_path = dir.join(format!("hitscope-for-apps-{}.{}", request.version, request.format));
    let partial = final_path.with_extension(format!("{}.part", request.format));
    let agent = site::agent(Duration::from_secs(30 * 60));
    let mut builder = agent.get(&format!("{site_url}{}", request.url));
    if let Some(key) = &request.licence_key {
        builder = builder.header("Authorization", &format!("License {key}"));
    }
    let mut response = builder.call().map_err(|e| error("download-failed", format!("The download failed: {e}")))?;
    let status = response.status().as_u16();
    if status != 200 {
        return Err(error("download-failed", format!("The site answered {status} to the download.")));
    }
    let result = (|| -> Result<[u8; 32], UpdateError> {
        let mut file = File::create(&partial).map_err(|e| error("download-failed", e.to_string()))?;
        let mut reader = response.body_mut().as_reader();
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 256 * 1024];
        let mut total = 0u64;
        loop {
            let read = reader.read(&mut buffer).map_err(|e| error("download-failed", format!("The download failed: {e}")))?;
            if read == 0 {
                break;
            }
            total += read as u64;
            if total > request.size {
                return Err(error("sha256-mismatch", "The download is larger than the update check said."));
            }
            hasher.update(&buffer[..read]);
            file.write_all(&buffer[..read]).map_err(|e| error("download-failed", e.to_string()))?;
        }
        file.sync_all().map_err(|e| error("download-failed", e.to_string()))?;
        let digest: [u8; 32] = hasher.finalize().into();
        if hex(&digest) != expected {
            return Err(error("sha256-mismatch", "The download's SHA-256 differs from the one the site published: it is not offered."));
        }
        verify_signature(&digest, &request.signature, &request.jwks)?;
        Ok(digest)
    })();
    match result {
        Ok(digest) => {
            fs::rename(&partial, &final_path).map_err(|e| error("download-failed", e.to_string()))?;
            Ok((
                VerifiedUpdate {
                    path: final_path.display().to_string(),
                    version: request.version.clone(),
                    sha256: hex(&digest),
                    kid: request.signature.kid.clone(),
                },
                digest,
            ))
        }
        Err(failure) => {
            let _ = fs::remove_file(&partial);
            Err(failure)
        }
    }
}

/// Verified downloads of this run: path → digest. Only these can be installed.
#[derive(Default)]
pub struct Verified(pub HashMap<PathBuf, [u8; 32]>);

/// Opens a verified package with the system's installer, after hashing it again (it sat on disk).
pub fn install(verified: &Verified, path: &Path) -> Result<(), UpdateError> {
    let digest = verified.0.get(path).ok_or_else(|| error("unsigned", "Only a downloaded and verified update can be installed."))?;
    let now = sha256_file(path).map_err(|e| error("download-failed", e.to_string()))?;
    if &now != digest {
        return Err(error("sha256-mismatch", "The downloaded update changed on disk since it was verified: it is not installed."));
    }
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(program)
        .arg(path)
        .spawn()
        .map(|_| ())
        .map_err(|e| error("install-failed", format!("Could not open the installer ({program}): {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    fn keys() -> (SigningKey, Jwks) {
        let signing = SigningKey::from_bytes(&[7u8; 32]);
        let x = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(signing.verifying_key().as_bytes());
        (signing, Jwks { keys: vec![Jwk { kid: "k1".into(), kty: "OKP".into(), crv: "Ed25519".into(), x }] })
    }

    #[test]
    fn accepts_a_signature_over_the_digest_and_refuses_others() {
        let (signing, jwks) = keys();
        let digest: [u8; 32] = Sha256::digest(b"the build").into();
        let value = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(signing.sign(&digest).to_bytes());
        let good = ReleaseSignature { kid: "k1".into(), value: value.clone() };
        assert_eq!(verify_signature(&digest, &good, &jwks), Ok(()));
        let other: [u8; 32] = Sha256::digest(b"another build").into();
        assert_eq!(verify_signature(&other, &good, &jwks).unwrap_err().code, "bad-signature");
        let unknown = ReleaseSignature { kid: "k2".into(), value };
        assert_eq!(verify_signature(&digest, &unknown, &jwks).unwrap_err().code, "unknown-key");
    }
}
