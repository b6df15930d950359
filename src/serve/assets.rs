//! The page's files, embedded at build time from `web/static/` (see `build.rs`): `/` is
//! `index.html`, `/PATH` the file `web/static/PATH`. Each answer carries an ETag (its CRC-32), so
//! a reload costs a 304.

use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// `(path relative to web/static, bytes)`, sorted by path.
static ASSETS: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// The embedded file at `path` (`""` is `index.html`).
pub fn asset(path: &str) -> Option<&'static [u8]> {
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS.binary_search_by(|(p, _)| (*p).cmp(path)).ok().map(|i| ASSETS[i].1)
}

/// The Content-Security-Policy of every answer: this server's own scripts (and the page's inline
/// import map, by its SHA-256), styles (no style attributes: the page sets styles through the
/// CSSOM), images (the `data:` favicon and the `blob:` images of fetched plots) and connections;
/// no frames, no plugins, no foreign form targets.
pub fn content_security_policy() -> axum::http::HeaderValue {
    static CSP: std::sync::OnceLock<axum::http::HeaderValue> = std::sync::OnceLock::new();
    CSP.get_or_init(|| {
        let scripts: String = inline_scripts(asset("").unwrap_or_default())
            .iter()
            .map(|s| {
                use base64::Engine;
                use sha2::Digest;
                format!(" 'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(s)))
            })
            .collect();
        let policy = format!(
            "default-src 'self'; script-src 'self'{scripts}; style-src 'self'; img-src 'self' data: blob:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        );
        axum::http::HeaderValue::from_str(&policy).expect("the policy is ASCII")
    })
    .clone()
}

/// The contents of the inline `<script>` elements of an HTML page (those without `src`).
fn inline_scripts(html: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = find(rest, b"<script") {
        let after = &rest[open..];
        let Some(end_tag) = find(after, b">") else { break };
        let tag = &after[..end_tag];
        let body = &after[end_tag + 1..];
        let Some(close) = find(body, b"</script>") else { break };
        if find(tag, b" src=").is_none() {
            out.push(&body[..close]);
        }
        rest = &body[close..];
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Every embedded path.
#[cfg(test)]
pub fn paths() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|(p, _)| *p)
}

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// For developing the page: `FIVEUP_WEB_DIR=web/static fiveup serve` answers from that
/// directory instead of the embedded copy, so an edited page needs a reload, not a rebuild. Only
/// paths of plain names (no `..`, no hidden names) are read; the Content-Security-Policy stays the
/// embedded page's.
fn web_dir() -> Option<&'static std::path::Path> {
    static DIR: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::var_os("FIVEUP_WEB_DIR").map(std::path::PathBuf::from)?;
        tracing::warn!("serving the page from {} (FIVEUP_WEB_DIR), not the embedded copy", dir.display());
        Some(dir)
    })
    .as_deref()
}

/// The file at `path` under [`web_dir`], when that is set and the path is made of plain names.
fn disk_asset(dir: &std::path::Path, path: &str) -> Option<Vec<u8>> {
    let path = if path.is_empty() { "index.html" } else { path };
    if path.split('/').any(|part| part.is_empty() || part.starts_with('.') || part.contains('\\')) {
        return None;
    }
    std::fs::read(dir.join(path)).ok()
}

/// The fallback route: an embedded file, or 404.
pub(crate) async fn serve_asset(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let bytes: std::borrow::Cow<'static, [u8]> = match web_dir() {
        Some(dir) => match disk_asset(dir, path) {
            Some(b) => b.into(),
            None => return (StatusCode::NOT_FOUND, "not found").into_response(),
        },
        None => match asset(path) {
            Some(b) => b.into(),
            None => return (StatusCode::NOT_FOUND, "not found").into_response(),
        },
    };
    let name = if path.is_empty() { "index.html" } else { path };
    let etag = format!("\"{:08x}\"", crate::fsutil::crc32(&bytes));
    if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    (
        [
            (header::CONTENT_TYPE, mime(name).to_string()),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, "no-cache".to_string()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        ],
        bytes,
    )
        .into_response()
}
