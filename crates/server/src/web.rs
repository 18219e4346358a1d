//! The web interface: the files of `web/` compiled into the binary and served at every
//! path outside `/api`. Paths that name no file but look like a page of the interface
//! (`/`, `/game/<id>`, `/games`, `/players`, `/reports`, `/rules/<game>`) answer
//! `index.html`, whose scripts route on the client.
//!
//! Files are revalidated on every load (`Cache-Control: no-cache` with a strong
//! `ETag` of their content), so a new binary's files are picked up at once and an
//! unchanged file costs a `304`.

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A file of `web/`: its path below `web/` and its bytes.
struct Asset {
    path: &'static str,
    bytes: &'static [u8],
}

macro_rules! assets {
    ($($path:literal),* $(,)?) => {
        &[$(Asset { path: $path, bytes: include_bytes!(concat!("../../../web/", $path)) }),*]
    };
}

/// Every file of `web/` (a test checks that none is missing).
const ASSETS: &[Asset] = assets![
    "index.html",
    "favicon.svg",
    "css/analysis.css",
    "css/app.css",
    "fonts/xiangqi.woff2",
    "fonts/LICENSE.txt",
    "js/analysis.js",
    "js/api.js",
    "js/app.js",
    "js/board.js",
    "js/common.js",
    "js/dom.js",
    "js/game.js",
    "js/game/controller.js",
    "js/game/state.js",
    "js/game/view.js",
    "js/i18n.js",
    "js/lobby.js",
    "js/pieces.js",
    "js/players.js",
    "js/reports.js",
    "js/rules.js",
    "js/rules/diagrams.js",
    "js/rules/en.js",
    "js/rules/es.js",
    "js/rules/zh-CN.js",
    "js/sound.js",
];

/// The policy of every page: scripts, styles and images only from this server, the
/// socket to this server; no frames, no plugins.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
     connect-src 'self' ws: wss:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A strong validator of `bytes`: FNV-1a, 64 bits, quoted.
fn etag(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("\"{hash:016x}\"")
}

/// The file for a request path: a file of `web/`, or `index.html` for a client route
/// (a path whose last segment has no dot). `None`: no such file.
fn asset_for(path: &str) -> Option<&'static Asset> {
    let relative = path.trim_start_matches('/');
    if let Some(asset) = ASSETS.iter().find(|a| a.path == relative) {
        return Some(asset);
    }
    let last = relative.rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        None
    } else {
        ASSETS.iter().find(|a| a.path == "index.html")
    }
}

/// Answers a request for `path` outside `/api`.
pub(crate) fn serve(method: &Method, path: &str, headers: &HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "the web interface's pages take GET and HEAD only\n",
        )
            .into_response();
    }
    let Some(asset) = asset_for(path) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file {path:?}\n"),
        )
            .into_response();
    };
    let tag = etag(asset.bytes);
    let mut response = if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"))
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else if method == Method::HEAD {
        (
            [(header::CONTENT_LENGTH, asset.bytes.len().to_string())],
            (),
        )
            .into_response()
    } else {
        asset.bytes.into_response()
    };
    let out = response.headers_mut();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(asset.path)),
    );
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(value) = HeaderValue::from_str(&tag) {
        out.insert(header::ETAG, value);
    }
    if asset.path == "index.html" {
        out.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        out.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_under(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("web/ is readable") {
            let entry = entry.expect("a directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}{name}");
            if entry.file_type().expect("a file type").is_dir() {
                files_under(&entry.path(), &format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_file_of_web_is_embedded() {
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut files = Vec::new();
        files_under(&web, "", &mut files);
        files.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|a| a.path.to_owned()).collect();
        embedded.sort();
        assert_eq!(files, embedded);
    }

    /// What a first visit loads: every file but the pages loaded when first opened
    /// (`app.js` imports them on demand) and the font's licence text. Counted
    /// uncompressed, so the compressed load (the 250 KB) is well below.
    #[test]
    fn first_load_is_under_250_kb_uncompressed() {
        const LATER: [&str; 6] = [
            "js/analysis.js",
            "css/analysis.css",
            "js/players.js",
            "js/reports.js",
            "js/rules.js",
            "fonts/LICENSE.txt",
        ];
        let app = String::from_utf8_lossy(
            ASSETS
                .iter()
                .find(|a| a.path == "js/app.js")
                .map_or(&[][..], |a| a.bytes),
        )
        .into_owned();
        for page in ["analysis.js", "players.js", "reports.js", "rules.js"] {
            assert!(
                app.contains(&format!("import('./{page}')")),
                "{page} is loaded on demand"
            );
        }
        // The rules pages' texts and diagrams come with a rules page, one language
        // at a time.
        let total: usize = ASSETS
            .iter()
            .filter(|a| !LATER.contains(&a.path) && !a.path.starts_with("js/rules/"))
            .map(|a| a.bytes.len())
            .sum();
        assert!(total < 250 * 1024, "a first visit loads {total} bytes");
    }

    #[test]
    fn client_routes_answer_the_page_and_unknown_files_do_not() {
        let index = |p: &str| asset_for(p).map(|a| a.path);
        assert_eq!(index("/"), Some("index.html"));
        assert_eq!(index("/game/abc"), Some("index.html"));
        assert_eq!(index("/js/app.js"), Some("js/app.js"));
        assert_eq!(index("/js/nothing.js"), None);
        assert_eq!(content_type("js/app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("fonts/xiangqi.woff2"), "font/woff2");
        assert_eq!(etag(b"a"), etag(b"a"));
        assert_ne!(etag(b"a"), etag(b"b"));
    }
}
