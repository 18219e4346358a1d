//! The boards' input and legibility in a real browser (see `browser.rs` for the set-up):
//! draughts played as on lidraughts (the pieces that must capture marked, a refused
//! piece explained, a capture clicked through square by square, the selected piece
//! dropped by a second press), square numbers and move dots measured for contrast
//! from Chromium's computed colours, and the xiangqi characters drawn with the font
//! the server ships, with each side's file numbers along the edges.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use cdp::Page;
use harness::*;
use serde_json::{Value, json};

/// WCAG 2 contrast in the page: `contrast(fg, bg)` of two CSS colours, `fg` laid over
/// `bg` with its alpha (and `extra` opacity) first.
const CONTRAST_JS: &str = "\
    const rgba = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) throw new Error('colour ' + c); \
      const [r, g, b, a = 1] = m[1].split(',').map(Number); return [r, g, b, a]; }; \
    const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; \
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); }; \
    const contrast = (fg, bg, extra = 1) => { const f = rgba(fg), b = rgba(bg), a = f[3] * extra; \
      const mixed = [0, 1, 2].map((i) => f[i] * a + b[i] * (1 - a)); \
      const [hi, lo] = [lum(mixed), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); }; \
    const squareUnder = (el) => { const r = el.getBoundingClientRect(); \
      return document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2).find((e) => e.classList.contains('sq')); }; \
    const opacity = (el) => { const s = getComputedStyle(el); return parseFloat(s.opacity) * parseFloat(s.fillOpacity); };";

/// The lowest contrast of the legal-move dots (fill) and capture rings (stroke) on the
/// page against the squares under them, and how many were measured.
async fn lowest_target_contrast(page: &Page<'_>, squares: &str) -> (f64, u64) {
    let measured = page
        .eval(&format!(
            "(() => {{ {CONTRAST_JS} \
               const found = [...document.querySelectorAll('.board .target')].map((t) => {{ \
                 const sq = squareUnder(t); if (!sq || !sq.matches({squares:?})) return null; \
                 const s = getComputedStyle(t); const ring = t.classList.contains('capture'); \
                 return contrast(ring ? s.stroke : s.fill, getComputedStyle(sq).fill, \
                   parseFloat(s.opacity) * parseFloat(ring ? s.strokeOpacity : s.fillOpacity)); }}).filter((c) => c !== null); \
               return [Math.min(...found), found.length]; }})()"
        ))
        .await;
    (measured[0].as_f64().unwrap(), measured[1].as_u64().unwrap())
}

async fn reload(page: &Page<'_>) {
    let here = page.eval("location.href").await;
    page.goto(here.as_str().unwrap()).await;
}

async fn message(page: &Page<'_>) -> String {
    page.eval("document.querySelector('.message').textContent")
        .await
        .as_str()
        .unwrap()
        .to_owned()
}

async fn count(page: &Page<'_>, selector: &str) -> u64 {
    page.eval(&format!("document.querySelectorAll({selector:?}).length"))
        .await
        .as_u64()
        .unwrap()
}

/// The square names (`data-name`) under the elements matching `selector`, sorted.
async fn names_under(page: &Page<'_>, selector: &str) -> Vec<String> {
    let names = page
        .eval(&format!(
            "[...document.querySelectorAll({selector:?})].map((el) => {{ const r = el.getBoundingClientRect(); \
               return document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2) \
                 .find((e) => e.hasAttribute('data-name')).getAttribute('data-name'); }})"
        ))
        .await;
    let mut names: Vec<String> = serde_json::from_value(names).unwrap();
    names.sort_by_key(|n| n.parse::<u32>().unwrap_or(u32::MAX));
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draughts_compulsory_captures_are_marked_explained_and_clicked_through() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    // Black to move: the man on 6 must take 10 and then 18 or 19 (landing on 22 or
    // 24); the man on 1 could step to 5, were a capture not due.
    let created = create_game(
        &h,
        json!({"game": "draughts", "variant": "english", "position": "B:W10,18,19:B1,6"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;

    // Before any press, the piece that must capture is marked, and only that one.
    page.wait_for_el(".mark.forced").await;
    assert_eq!(names_under(&page, ".mark.forced").await, ["6"]);

    // Pressing the man on 1 selects nothing and says which piece must capture.
    page.click("[data-name=\"1\"]").await;
    let said = page
        .wait_for("document.querySelector('.message').textContent")
        .await;
    assert_eq!(said, json!("A capture is compulsory: take with 6."));
    assert_eq!(count(&page, ".mark.selected").await, 0);
    page.screenshot(&screenshot_path("draughts-must-capture"))
        .await;

    // The same in Spanish.
    page.eval("localStorage.setItem('tablero.lang', 'es'); true")
        .await;
    reload(&page).await;
    page.wait_for_el(".mark.forced").await;
    page.click("[data-name=\"1\"]").await;
    page.wait_for("document.querySelector('.message').textContent")
        .await;
    assert_eq!(
        message(&page).await,
        "La captura es obligatoria: captura con 6."
    );
    page.eval("localStorage.setItem('tablero.lang', 'en'); true")
        .await;
    reload(&page).await;
    page.wait_for_el(".mark.forced").await;

    // Selecting the man on 6: the marks give way to the selection and its targets.
    page.click("[data-name=\"6\"]").await;
    page.wait_for_el(".mark.selected").await;
    assert_eq!(count(&page, ".mark.forced").await, 0);
    assert_eq!(names_under(&page, ".board .target").await, ["22", "24"]);
    // A second press on it drops it.
    page.click("[data-name=\"6\"]").await;
    page.wait_for("!document.querySelector('.mark.selected')")
        .await;
    assert_eq!(names_under(&page, ".mark.forced").await, ["6"]);
    assert_eq!(move_count(&page).await, 0);

    // Clicked through: after 15, the square passed is marked and the men the moves
    // still possible take are shown as going (10 surely, 18 or 19).
    page.click("[data-name=\"6\"]").await;
    page.wait_for_el(".mark.selected").await;
    page.click("[data-name=\"15\"]").await;
    page.wait_for_el(".mark.passed").await;
    assert_eq!(names_under(&page, ".mark.passed").await, ["15"]);
    assert_eq!(names_under(&page, ".mark.taken").await, ["10", "18", "19"]);
    assert_eq!(
        names_under(&page, ".pieces .taken").await,
        ["10", "18", "19"]
    );
    assert_eq!(names_under(&page, ".board .target").await, ["22", "24"]);
    assert_eq!(message(&page).await, "", "a press clears the refusal");
    page.screenshot(&screenshot_path("draughts-capture-clicked-through"))
        .await;
    page.click("[data-name=\"24\"]").await;
    wait_moves(&page, 1).await;
    assert_eq!(notations(&page).await, ["6x24"]);
    assert_eq!(
        names_under(&page, "[data-piece] .piece.white").await,
        ["18"]
    );
    // White to move, no capture due: nothing is marked.
    assert_eq!(count(&page, ".mark.forced").await, 0);
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_circular_capture_is_played_through_its_path_and_a_second_press_deselects() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    // The man on 32 takes 28, 29, 39 and 38 round the square and comes back: 32x32.
    let created = create_game(
        &h,
        json!({"game": "draughts", "variant": "international", "position": "W:W32:B28,29,38,39"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    page.wait_for_el(".mark.forced").await;
    page.click("[data-name=\"32\"]").await;
    page.wait_for_el(".mark.selected").await;
    // Its one destination is its own square.
    assert_eq!(names_under(&page, ".board .target").await, ["32"]);
    // A second press drops the piece rather than play the capture.
    page.click("[data-name=\"32\"]").await;
    page.wait_for("!document.querySelector('.mark.selected')")
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(move_count(&page).await, 0);
    // Pressing a square of its path plays it (34 is the far corner of either way round).
    page.click("[data-name=\"32\"]").await;
    page.wait_for_el(".mark.selected").await;
    page.click("[data-name=\"34\"]").await;
    wait_moves(&page, 1).await;
    assert_eq!(notations(&page).await, ["32x32"]);
    assert_eq!(count(&page, "[data-piece] .piece.black").await, 0);
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn square_numbers_and_move_dots_have_enough_contrast() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    for variant in [
        "english",
        "international",
        "brazilian",
        "russian",
        "spanish",
        "italian",
    ] {
        let created = create_game(&h, json!({"game": "draughts", "variant": variant})).await;
        open_hotseat(&h, &page, &created).await;
        // Each number against the square it is written on; every numbered square is a
        // dark one, the squares the pieces stand on.
        let measured = page
            .eval(&format!(
                "(() => {{ {CONTRAST_JS} \
                   const numbers = [...document.querySelectorAll('.board-draughts .coord.number')]; \
                   const found = numbers.map((t) => {{ const sq = squareUnder(t); \
                     return [contrast(getComputedStyle(t).fill, getComputedStyle(sq).fill, opacity(t)), sq.classList.contains('dark')]; }}); \
                   const pieces = [...document.querySelectorAll('[data-piece]')].map((p) => squareUnder(p.querySelector('.disc'))); \
                   return {{ lowest: Math.min(...found.map((f) => f[0])), numbers: found.length, \
                     onDark: found.filter((f) => f[1]).length, piecesOnDark: pieces.every((sq) => sq.classList.contains('dark')) }}; }})()"
            ))
            .await;
        let lowest = measured["lowest"].as_f64().unwrap();
        eprintln!("{variant}: square numbers at {lowest:.2}:1 at the least");
        assert!(lowest >= 4.5, "{variant}: a square number at {lowest:.2}:1");
        assert_eq!(measured["numbers"], measured["onDark"], "{variant}");
        assert_eq!(measured["piecesOnDark"], json!(true), "{variant}");
        if variant == "italian" {
            page.screenshot(&screenshot_path("draughts-italian")).await;
        }
        if variant == "international" {
            // The move dots, on the dark squares: white's man on 32 goes to 27 or 28.
            page.click("[data-name=\"32\"]").await;
            page.wait_for_el(".board .target").await;
            let (lowest, dots) = lowest_target_contrast(&page, ".sq.dark").await;
            eprintln!("draughts: move dots at {lowest:.2}:1");
            assert_eq!(dots, 2);
            assert!(lowest >= 3.0, "a draughts move dot at {lowest:.2}:1");
        }
    }

    // Chess: the dots of e2 on e3 (dark) and the capture ring of Kxd2 (dark).
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    page.click_spot("0,4,1").await;
    page.wait_for_el(".board .target").await;
    let (lowest, dots) = lowest_target_contrast(&page, ".sq.dark").await;
    eprintln!("chess: move dots on dark squares at {lowest:.2}:1");
    assert_eq!(dots, 1, "e3");
    assert!(lowest >= 3.0, "a move dot at {lowest:.2}:1");
    let created = create_game(
        &h,
        json!({"game": "chess", "position": "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    page.click_spot("0,4,0").await;
    page.wait_for_el(".board .target.capture").await;
    let (lowest, measured) = lowest_target_contrast(&page, ".sq.dark").await;
    eprintln!("chess: dots and capture rings on dark squares at {lowest:.2}:1");
    assert_eq!(measured, 2, "the ring on d2 and the dot on f2");
    assert!(lowest >= 3.0, "a capture ring at {lowest:.2}:1");
    h.assert_no_console_errors(&[]);
}

/// The file numbers along the top and the bottom edge, each from the left of the screen.
async fn file_numbers(page: &Page<'_>) -> (String, String) {
    let edges: Value = page
        .eval(
            "(() => { const labels = [...document.querySelectorAll('.board-xiangqi .coord.file-number')] \
               .map((t) => [t.getBoundingClientRect(), t.textContent]); \
               const mid = labels.reduce((s, [r]) => s + r.y, 0) / labels.length; \
               const edge = (top) => labels.filter(([r]) => (r.y < mid) === top).sort((a, b) => a[0].x - b[0].x).map(([, t]) => t).join(''); \
               return [edge(true), edge(false)]; })()",
        )
        .await;
    (
        edges[0].as_str().unwrap().to_owned(),
        edges[1].as_str().unwrap().to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_characters_come_from_the_shipped_font_with_file_numbers_as_an_option() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "xiangqi"})).await;
    open_hotseat(&h, &page, &created).await;

    // The font is served as a font, and loads for the pieces.
    page.wait_for(
        "[...document.fonts].some((f) => f.family.replace(/\"/g, '') === 'XiangqiPieces' && f.status === 'loaded')",
    )
    .await;
    assert_eq!(
        page.eval("document.fonts.check('700 50px XiangqiPieces', '帥將楚河漢界')")
            .await,
        json!(true)
    );
    let served = page
        .eval(
            "fetch('/fonts/xiangqi.woff2').then(async (r) => [r.headers.get('content-type'), (await r.arrayBuffer()).byteLength])",
        )
        .await;
    assert_eq!(served[0], json!("font/woff2"));
    let size = served[1].as_u64().unwrap();
    eprintln!("xiangqi.woff2: {size} bytes");
    assert!(size < 40_000, "{size} bytes");

    // Each character is drawn by the web font (not by a CJK font of the system), with
    // a width: one em, as CJK characters are.
    for selector in [
        ".piece.xiangqi.red .glyph",
        ".piece.xiangqi.black .glyph",
        ".xiangqi-board .river",
    ] {
        let fonts = page.platform_fonts(selector).await;
        assert!(
            !fonts.is_empty()
                && fonts.iter().all(|f| f["isCustomFont"] == json!(true)
                    && f["familyName"] == json!("Xiangqi Pieces")),
            "{selector} drawn with {fonts:?}"
        );
    }
    let width = page
        .eval(
            "[...document.querySelectorAll('.piece.xiangqi .glyph')].map((t) => t.getComputedTextLength() / parseFloat(getComputedStyle(t).fontSize))",
        )
        .await;
    let widths: Vec<f64> = serde_json::from_value(width).unwrap();
    assert_eq!(widths.len(), 32);
    assert!(widths.iter().all(|w| (w - 1.0).abs() < 0.01), "{widths:?}");

    // File numbers: off in English; the setting shows them, red's from red's right in
    // Chinese numerals at the bottom, black's from black's right at the top.
    assert_eq!(count(&page, ".coord.file-number").await, 0);
    page.click("[for=\"opt-file-numbers\"]").await;
    page.wait_for_el(".coord.file-number").await;
    assert_eq!(
        file_numbers(&page).await,
        (
            "１２３４５６７８９".to_owned(),
            "九八七六五四三二一".to_owned()
        )
    );
    let fonts = page.platform_fonts(".coord.file-number").await;
    assert!(
        fonts.iter().all(|f| f["isCustomFont"] == json!(true)),
        "{fonts:?}"
    );
    page.screenshot(&screenshot_path("xiangqi-file-numbers"))
        .await;
    // Flipped, each side's numbers go with it.
    click_button(&page, ".actions", "Flip board").await;
    page.wait_for("document.querySelector('.coord.file-number')?.textContent === '１'")
        .await;
    assert_eq!(
        file_numbers(&page).await,
        (
            "一二三四五六七八九".to_owned(),
            "９８７６５４３２１".to_owned()
        )
    );
    // Saved: a new page keeps them; switched off, they stay off.
    assert_eq!(
        page.eval("localStorage.getItem('tablero.xiangqiFiles')")
            .await,
        json!("on")
    );
    let here = page
        .eval("location.href")
        .await
        .as_str()
        .unwrap()
        .to_owned();
    page.goto(&here).await;
    page.wait_for_el(".coord.file-number").await;
    page.click("[for=\"opt-file-numbers\"]").await;
    page.wait_for("!document.querySelector('.coord.file-number')")
        .await;
    page.goto(&here).await;
    page.wait_for_el(".board-xiangqi [data-spot]").await;
    assert_eq!(count(&page, ".coord.file-number").await, 0);

    // In Chinese they are on unless switched off.
    page.eval("localStorage.removeItem('tablero.xiangqiFiles'); localStorage.setItem('tablero.lang', 'zh-CN'); true")
        .await;
    page.goto(&here).await;
    page.wait_for_el(".coord.file-number").await;
    assert_eq!(
        file_numbers(&page).await,
        (
            "１２３４５６７８９".to_owned(),
            "九八七六五四三二一".to_owned()
        )
    );
    h.assert_no_console_errors(&[]);
}
