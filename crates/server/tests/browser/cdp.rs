//! A small Chrome DevTools Protocol client: starts headless Chromium, opens pages in
//! their own browser contexts, evaluates scripts, clicks with real mouse events, types,
//! takes screenshots and collects every console error and uncaught exception.
#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>>;

/// The Chromium executable, if one is installed.
pub fn chromium() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| {
            std::env::var_os("PATH")
                .map(|paths| {
                    std::env::split_paths(&paths)
                        .map(|dir| dir.join(name))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .find(|p| p.is_file())
}

/// A running headless Chromium and the one socket to it.
pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    next: Arc<Mutex<u64>>,
    /// Console errors, uncaught exceptions and failed requests, with the page's session.
    pub errors: Arc<Mutex<Vec<String>>>,
}

impl Browser {
    /// Starts Chromium at `path`.
    pub async fn launch(path: &Path) -> Browser {
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut child = Command::new(path)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--mute-audio",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--lang=en-US",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            // Chromium keeps its singleton socket in a directory of its own under
            // TMPDIR and leaves it behind when killed; inside the profile, it goes
            // with the profile.
            .env("TMPDIR", profile.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("Chromium starts");
        let stderr = child.stderr.take().expect("a piped stderr");
        let mut lines = BufReader::new(stderr).lines();
        let url = tokio::time::timeout(Duration::from_secs(60), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(rest) = line.split("DevTools listening on ").nth(1) {
                    return rest.trim().to_owned();
                }
            }
            panic!("Chromium exited without a DevTools address");
        })
        .await
        .expect("Chromium prints its DevTools address within a minute");
        // Keep draining stderr so that Chromium never blocks on it.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .expect("the DevTools socket opens");
        let (mut sink, mut stream) = socket.split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<String>();
        tokio::spawn(async move {
            while let Some(text) = out_rx.recv().await {
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        });
        let pending: Pending = Arc::default();
        let errors: Arc<Mutex<Vec<String>>> = Arc::default();
        let (p, e) = (pending.clone(), errors.clone());
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let Ok(value) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                if let Some(id) = value["id"].as_u64() {
                    if let Some(sender) = p.lock().expect("not poisoned").remove(&id) {
                        let answer = match value.get("error") {
                            Some(error) => Err(error.to_string()),
                            None => Ok(value["result"].clone()),
                        };
                        let _ = sender.send(answer);
                    }
                } else if let Some(error) = console_error(&value) {
                    e.lock().expect("not poisoned").push(error);
                }
            }
        });
        Browser {
            child,
            _profile: profile,
            out,
            pending,
            next: Arc::new(Mutex::new(0)),
            errors,
        }
    }

    async fn send(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = {
            let mut next = self.next.lock().expect("not poisoned");
            *next += 1;
            *next
        };
        let (tx, rx) = oneshot::channel();
        self.pending.lock().expect("not poisoned").insert(id, tx);
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.out
            .send(message.to_string())
            .expect("the socket writer runs");
        match tokio::time::timeout(Duration::from_secs(30), rx).await {
            Ok(Ok(Ok(result))) => result,
            Ok(Ok(Err(error))) => panic!("{method} failed: {error}"),
            _ => panic!("{method}: no answer from Chromium"),
        }
    }

    /// A new page in a fresh browser context (its own storage), `width`×`height`.
    pub async fn page(&self, width: u32, height: u32) -> Page<'_> {
        let context = self
            .send(None, "Target.createBrowserContext", json!({}))
            .await["browserContextId"]
            .clone();
        let target = self
            .send(
                None,
                "Target.createTarget",
                json!({"url": "about:blank", "browserContextId": context}),
            )
            .await["targetId"]
            .clone();
        let session = self
            .send(
                None,
                "Target.attachToTarget",
                json!({"targetId": target, "flatten": true}),
            )
            .await["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        let page = Page {
            browser: self,
            session,
        };
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            page.call(domain, json!({})).await;
        }
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        )
        .await;
        page
    }

    /// The errors collected so far, and forgets them.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock().expect("not poisoned"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// The text of a console error, an uncaught exception or a failed load, if `event` is one.
fn console_error(event: &Value) -> Option<String> {
    let params = &event["params"];
    match event["method"].as_str()? {
        "Runtime.consoleAPICalled" if params["type"] == "error" || params["type"] == "assert" => {
            let args: Vec<String> = params["args"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|v| {
                            v["value"]
                                .as_str()
                                .map(str::to_owned)
                                .unwrap_or_else(|| v["description"].to_string())
                        })
                        .collect()
                })
                .unwrap_or_default();
            Some(format!("console.error: {}", args.join(" ")))
        }
        "Runtime.exceptionThrown" => Some(format!(
            "exception: {}",
            params["exceptionDetails"]["exception"]["description"]
                .as_str()
                .or(params["exceptionDetails"]["text"].as_str())
                .unwrap_or("?")
        )),
        "Log.entryAdded" if params["entry"]["level"] == "error" => Some(format!(
            "log ({}): {} {}",
            params["entry"]["source"].as_str().unwrap_or("?"),
            params["entry"]["text"].as_str().unwrap_or("?"),
            params["entry"]["url"].as_str().unwrap_or("")
        )),
        _ => None,
    }
}

/// One tab.
pub struct Page<'b> {
    browser: &'b Browser,
    session: String,
}

impl Page<'_> {
    async fn call(&self, method: &str, params: Value) -> Value {
        self.browser.send(Some(&self.session), method, params).await
    }

    /// Makes the page's `prefers-color-scheme` `scheme` (`light` or `dark`).
    pub async fn color_scheme(&self, scheme: &str) {
        self.call(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        )
        .await;
    }

    /// Opens `url` and waits for the page's scripts to have drawn something.
    pub async fn goto(&self, url: &str) {
        self.call("Page.navigate", json!({"url": url})).await;
        self.wait_for(
            "document.readyState === 'complete' && document.querySelector('#main > *:not(noscript)') !== null",
        )
        .await;
    }

    /// Evaluates `expression` (promises are awaited) and returns its JSON value.
    pub async fn eval(&self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        if let Some(details) = result.get("exceptionDetails") {
            panic!("{expression}: {details}");
        }
        result["result"]["value"].clone()
    }

    /// Waits up to 20 s until `condition` is truthy.
    pub async fn wait_for(&self, condition: &str) -> Value {
        let start = Instant::now();
        loop {
            let result = self
                .call(
                    "Runtime.evaluate",
                    json!({"expression": condition, "returnByValue": true, "awaitPromise": true}),
                )
                .await;
            let value = result["result"]["value"].clone();
            if result.get("exceptionDetails").is_none()
                && !matches!(value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("")
            {
                return value;
            }
            if start.elapsed() > Duration::from_secs(20) {
                let shot = std::env::temp_dir().join("tablero-browser-failure.png");
                Box::pin(self.screenshot(&shot)).await;
                panic!(
                    "gave up waiting for {condition} (screenshot: {}); page text: {}",
                    shot.display(),
                    self.text().await
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits up to 20 s for an element matching `selector`.
    pub async fn wait_for_el(&self, selector: &str) {
        let sel = serde_json::to_string(selector).expect("a string");
        self.wait_for(&format!("document.querySelector({sel}) !== null"))
            .await;
    }

    /// How many listeners for events of `kind` the object `expression` evaluates to
    /// holds (`document`, `window`): what a page left behind when it went.
    pub async fn listeners(&self, expression: &str, kind: &str) -> usize {
        let target = self
            .call("Runtime.evaluate", json!({"expression": expression}))
            .await;
        let id = target["result"]["objectId"].clone();
        let found = self
            .call("DOMDebugger.getEventListeners", json!({"objectId": id}))
            .await;
        self.call("Runtime.releaseObject", json!({"objectId": id}))
            .await;
        found["listeners"]
            .as_array()
            .unwrap_or_else(|| panic!("no listeners of {expression}: {found}"))
            .iter()
            .filter(|l| l["type"] == kind)
            .count()
    }

    /// The fonts that drew the text of the first element matching `selector`, as
    /// Chromium reports them: `familyName`, `isCustomFont` (a web font), `glyphCount`.
    pub async fn platform_fonts(&self, selector: &str) -> Vec<Value> {
        self.call("DOM.enable", json!({})).await;
        self.call("CSS.enable", json!({})).await;
        // A node not yet laid out (or just replaced by a re-render) has no fonts yet:
        // ask again, for the current node, until it has or a few seconds have passed.
        let start = Instant::now();
        loop {
            let root =
                self.call("DOM.getDocument", json!({"depth": 0})).await["root"]["nodeId"].clone();
            let node = self
                .call(
                    "DOM.querySelector",
                    json!({"nodeId": root, "selector": selector}),
                )
                .await["nodeId"]
                .clone();
            assert_ne!(node, json!(0), "no element matches {selector}");
            let fonts = self
                .call("CSS.getPlatformFontsForNode", json!({"nodeId": node}))
                .await;
            let fonts = fonts["fonts"].as_array().cloned().unwrap_or_default();
            if !fonts.is_empty() || start.elapsed() > Duration::from_secs(5) {
                return fonts;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The page's visible text (for failure messages).
    pub async fn text(&self) -> String {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({"expression": "document.body.innerText", "returnByValue": true}),
            )
            .await;
        result["result"]["value"].as_str().unwrap_or("").to_owned()
    }

    /// The centre of the first element matching `selector`, waiting for it to appear.
    pub async fn centre(&self, selector: &str) -> (f64, f64) {
        let sel = serde_json::to_string(selector).expect("a string");
        let rect = self
            .wait_for(&format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return null; \
                 e.scrollIntoView({{block: 'center', inline: 'center'}}); const r = e.getBoundingClientRect(); \
                 return r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null; }})()"
            ))
            .await;
        (
            rect[0].as_f64().expect("a number"),
            rect[1].as_f64().expect("a number"),
        )
    }

    /// The centre of the first element matching `selector` where it is now, without
    /// scrolling.
    pub async fn centre_as_is(&self, selector: &str) -> (f64, f64) {
        let sel = serde_json::to_string(selector).expect("a string");
        let at = self
            .eval(&format!(
                "(() => {{ const r = document.querySelector({sel}).getBoundingClientRect();                  return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ))
            .await;
        (
            at[0].as_f64().expect("a number"),
            at[1].as_f64().expect("a number"),
        )
    }

    async fn mouse(&self, kind: &str, at: (f64, f64), buttons: u32) {
        self.mouse_button(kind, at, buttons, "left").await;
    }

    /// A mouse event with `button` (`left`, `right`); `buttons` is the mask of the
    /// buttons held (1 left, 2 right).
    async fn mouse_button(&self, kind: &str, (x, y): (f64, f64), buttons: u32, button: &str) {
        let button = if kind == "mouseMoved" && buttons == 0 {
            "none"
        } else {
            button
        };
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": button,
                   "buttons": buttons, "clickCount": 1, "pointerType": "mouse"}),
        )
        .await;
    }

    /// A real mouse click on the element matching `selector`.
    pub async fn click(&self, selector: &str) {
        let at = self.centre(selector).await;
        self.mouse("mouseMoved", at, 0).await;
        self.mouse("mousePressed", at, 1).await;
        self.mouse("mouseReleased", at, 0).await;
    }

    /// Drags with the mouse from one element to another.
    pub async fn drag(&self, from: &str, to: &str) {
        let a = self.centre(from).await;
        let b = self.centre(to).await;
        self.mouse("mouseMoved", a, 0).await;
        self.mouse("mousePressed", a, 1).await;
        for i in 1..=5 {
            let f = f64::from(i) / 5.0;
            self.mouse(
                "mouseMoved",
                (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f),
                1,
            )
            .await;
        }
        self.mouse("mouseReleased", b, 0).await;
    }

    /// Drags with the right mouse button from one element to another (the same one:
    /// a right click).
    pub async fn right_drag(&self, from: &str, to: &str) {
        let a = self.centre(from).await;
        let b = self.centre(to).await;
        self.mouse_button("mouseMoved", a, 0, "none").await;
        self.mouse_button("mousePressed", a, 2, "right").await;
        for i in 1..=5 {
            let f = f64::from(i) / 5.0;
            let at = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
            self.mouse_button("mouseMoved", at, 2, "right").await;
        }
        self.mouse_button("mouseReleased", b, 0, "right").await;
    }

    /// Makes the page a touch screen's: `pointer: coarse`, touch events, five fingers.
    pub async fn emulate_touch(&self) {
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 5}),
        )
        .await;
    }

    /// Drags with one finger from one element to another, as a touch screen does,
    /// holding still on the first for `hold` before moving.
    pub async fn touch_drag(&self, from: &str, to: &str, hold: Duration) {
        // Both ends where they are once the destination is scrolled into view.
        let b = self.centre(to).await;
        let a = self.centre_as_is(from).await;
        self.touch("touchStart", Some(a)).await;
        tokio::time::sleep(hold).await;
        for i in 1..=8 {
            let f = f64::from(i) / 8.0;
            let at = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
            self.touch("touchMove", Some(at)).await;
        }
        self.touch("touchEnd", None).await;
    }

    /// One finger's event: `touchStart` or `touchMove` at a point, `touchEnd` (none).
    pub async fn touch(&self, kind: &str, at: Option<(f64, f64)>) {
        let points = at.map_or_else(|| json!([]), |(x, y)| json!([{"x": x, "y": y}]));
        self.call(
            "Input.dispatchTouchEvent",
            json!({"type": kind, "touchPoints": points}),
        )
        .await;
    }

    /// Clicks the board square at `spot` (`"level,x,y"`).
    pub async fn click_spot(&self, spot: &str) {
        self.click(&format!("[data-spot=\"{spot}\"]")).await;
    }

    /// Types `text` into the element matching `selector` (focused by a click), then
    /// presses Enter if `enter`.
    pub async fn type_text(&self, selector: &str, text: &str, enter: bool) {
        // Focused by script, not clicked: a page whose lists are still loading may move
        // the field between finding its centre and the click.
        self.wait_for_el(selector).await;
        let sel = serde_json::to_string(selector).expect("a string");
        self.eval(&format!(
            "(() => {{ const el = document.querySelector({sel}); el.scrollIntoView({{block: 'center'}}); el.focus(); return true; }})()"
        ))
        .await;
        self.call("Input.insertText", json!({"text": text})).await;
        if enter {
            for kind in ["keyDown", "keyUp"] {
                self.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                           "text": if kind == "keyDown" { "\r" } else { "" }}),
                )
                .await;
            }
        }
    }

    /// Presses and releases one key on whatever has the focus: `Tab`, `Enter`, ` `
    /// (Space) or an arrow (`ArrowUp`, ...).
    pub async fn press_key(&self, key: &str) {
        let (code, vk, text) = match key {
            "Tab" => ("Tab", 9, "\t"),
            "Enter" => ("Enter", 13, "\r"),
            " " => ("Space", 32, " "),
            "ArrowLeft" => ("ArrowLeft", 37, ""),
            "ArrowUp" => ("ArrowUp", 38, ""),
            "ArrowRight" => ("ArrowRight", 39, ""),
            "ArrowDown" => ("ArrowDown", 40, ""),
            "Escape" => ("Escape", 27, ""),
            other => panic!("press_key: no key code for {other:?}"),
        };
        // Keys without text go down "raw", as a keyboard's arrows do.
        let down = if text.is_empty() {
            "rawKeyDown"
        } else {
            "keyDown"
        };
        for kind in [down, "keyUp"] {
            let text = if kind == "keyUp" { "" } else { text };
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk, "text": text}),
            )
            .await;
        }
    }

    /// Saves a PNG of the page to `path`.
    pub async fn screenshot(&self, path: &Path) {
        // Let the last frame settle.
        tokio::time::sleep(Duration::from_millis(150)).await;
        let shot = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        let bytes = base64_decode(shot["data"].as_str().expect("base64 data"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot directory");
        }
        std::fs::write(path, bytes).expect("the screenshot is written");
    }
}

/// Standard base64 (the alphabet with `+` and `/`), padding ignored.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, d)| acc | (d << (18 - 6 * i)));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGVsbG8h"), b"hello!");
    assert_eq!(base64_decode("aA=="), b"h");
}
