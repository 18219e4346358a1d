//! What every browser test file shares: a server with a temporary database and a
//! headless Chromium, one test at a time per file, and helpers to drive the pages.
//! A test file includes it with `cdp.rs`:
//!
//! ```ignore
//! #[path = "browser/cdp.rs"]
//! mod cdp;
//! #[path = "browser/harness.rs"]
//! mod harness;
//! ```
#![allow(dead_code)] // each test file uses its own part of the helpers

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::cdp::{self, Browser, Page};
use serde_json::Value;
use tablero_server::{AppState, RateLimits, ServerOptions};
use tablero_store::Store;

/// Browser tests one at a time: each starts a Chromium, and the machine is small.
pub(crate) static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The administrator token of the browser tests' server.
pub(crate) const ADMIN_TOKEN: &str = "browser-admin-token";

pub(crate) struct Harness {
    pub(crate) addr: SocketAddr,
    pub(crate) browser: Browser,
    _dir: tempfile::TempDir,
    /// This test's turn: browser tests run one at a time.
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl Harness {
    /// The server and a browser, once it is this test's turn, or `None` (skip) when
    /// Chromium is missing outside CI.
    pub(crate) async fn start() -> Option<Harness> {
        let turn = ONE_AT_A_TIME.lock().await;
        let Some(chromium) = cdp::chromium() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "Chromium is not installed (scripts/test installs Debian's chromium)"
            );
            eprintln!("skipped: Chromium is not installed (apt-get install chromium)");
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("browser.db").display());
        let store = Store::open(&url).await.unwrap();
        let app = tablero_server::app(AppState::with_options(
            store,
            ServerOptions {
                engine_threads: 1,
                admin_token: Some(ADMIN_TOKEN.to_owned()),
                rate_limits: RateLimits::off(),
                ..ServerOptions::default()
            },
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let browser = Browser::launch(&chromium).await;
        Some(Harness {
            addr,
            browser,
            _dir: dir,
            _turn: turn,
        })
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub(crate) async fn page(&self) -> Page<'_> {
        self.browser.page(1280, 900).await
    }

    /// A page of the usual size at `path`.
    pub(crate) async fn open(&self, path: &str) -> Page<'_> {
        let page = self.page().await;
        page.goto(&self.url(path)).await;
        page
    }

    /// Fails on any console error, except failed requests whose text holds one of
    /// `expected` (a refused move answers 400, which the console reports).
    pub(crate) fn assert_no_console_errors(&self, expected: &[&str]) {
        let errors: Vec<String> = self
            .browser
            .take_errors()
            .into_iter()
            .filter(|e| !(e.starts_with("log (network)") && expected.iter().any(|x| e.contains(x))))
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    }
}

pub(crate) fn screenshot_path(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("screenshots").join(format!("{name}.png"))
}

/// The game id of the page's address `/game/<id>`.
pub(crate) async fn game_id(page: &Page<'_>) -> String {
    let path = page
        .wait_for("location.pathname.startsWith('/game/') && location.pathname")
        .await;
    path.as_str()
        .unwrap()
        .trim_start_matches("/game/")
        .to_owned()
}

pub(crate) async fn move_count(page: &Page<'_>) -> usize {
    page.eval("document.querySelectorAll('.move-list .move').length")
        .await
        .as_u64()
        .unwrap() as usize
}

pub(crate) async fn wait_moves(page: &Page<'_>, n: usize) {
    page.wait_for(&format!(
        "document.querySelectorAll('.move-list .move').length === {n}"
    ))
    .await;
}

pub(crate) async fn notations(page: &Page<'_>) -> Vec<String> {
    let v = page
        .eval("[...document.querySelectorAll('.move-list .move')].map(b => b.textContent)")
        .await;
    serde_json::from_value(v).unwrap()
}

/// Clicks `from` then `to` (spots `"level,x,y"`) and waits for the move list to grow.
pub(crate) async fn click_move(page: &Page<'_>, from: &str, to: &str) {
    let before = move_count(page).await;
    page.click_spot(from).await;
    page.wait_for_el(".board .target").await;
    page.click_spot(to).await;
    page.wait_for(&format!(
        "document.querySelectorAll('.move-list .move').length > {before}"
    ))
    .await;
}

/// Clicks the button inside `container` whose text is `label`.
pub(crate) async fn click_button(page: &Page<'_>, container: &str, label: &str) {
    let find = format!(
        "[...document.querySelectorAll('{container} button')].find(b => b.textContent === {label:?})"
    );
    page.wait_for(&format!("!!{find}")).await;
    page.eval(&format!("{find}.id = 'to-click'; true")).await;
    page.click("#to-click").await;
    page.eval("document.getElementById('to-click')?.removeAttribute('id'); true")
        .await;
}

/// Plays `moves` by typing them into the move box, one after the other.
pub(crate) async fn type_moves(page: &Page<'_>, moves: &[&str]) {
    for mv in moves {
        let before = move_count(page).await;
        // The move list grows before the page clears the field of the last move; typing
        // into it earlier appends ("Nf6Ng1").
        page.wait_for("document.querySelector('#move-input').value === ''")
            .await;
        page.type_text("#move-input", mv, true).await;
        wait_moves(page, before + 1).await;
    }
}

pub(crate) async fn create_game(harness: &Harness, body: Value) -> Value {
    let response = tokio::task::spawn_blocking({
        let addr = harness.addr;
        move || post_json(addr, "/api/games", &body)
    })
    .await
    .unwrap();
    assert!(response["id"].is_string(), "{response}");
    response
}

/// A blocking JSON POST over a plain socket (the tests need no HTTP client crate).
pub(crate) fn post_json(addr: SocketAddr, path: &str, body: &Value) -> Value {
    post(addr, path, body, None)
}

/// [`post_json`] with a seat's token.
pub(crate) fn post_json_as(addr: SocketAddr, path: &str, body: &Value, token: &str) -> Value {
    post(addr, path, body, Some(token))
}

fn post(addr: SocketAddr, path: &str, body: &Value, token: Option<&str>) -> Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    let authorization =
        token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{authorization}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let json_start = answer.find("\r\n\r\n").unwrap() + 4;
    let text = &answer[json_start..];
    // The body may be chunked: take the JSON object inside.
    let start = text.find('{').unwrap();
    let end = text.rfind('}').unwrap();
    serde_json::from_str(&text[start..=end]).unwrap()
}

/// Opens a game created through the API in hot-seat mode (both seats on this page).
pub(crate) async fn open_hotseat(harness: &Harness, page: &Page<'_>, created: &Value) {
    let id = created["id"].as_str().unwrap();
    page.goto(&harness.url("/")).await;
    let seats = created["seats"].to_string();
    page.eval(&format!(
        "localStorage.setItem('tablero.seats', JSON.stringify({{{id:?}: {seats}}})); true"
    ))
    .await;
    page.goto(&harness.url(&format!("/game/{id}"))).await;
    page.wait_for_el(".board [data-spot]").await;
}
