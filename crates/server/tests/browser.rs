//! The web interface in a real browser: headless Chromium (Debian's `chromium`,
//! installed by `scripts/test`) driven over the DevTools protocol against a server
//! started in-process on 127.0.0.1:0 with a temporary database. Every test fails on
//! any console error or uncaught exception, and saves screenshots of its boards to
//! `target/screenshots/`.
//!
//! Without Chromium the tests fail under CI (`CI` set) and are skipped with a message
//! otherwise.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use cdp::Page;
use harness::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scholars_mate_by_clicking_in_hotseat() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    // The lobby's defaults: chess, two players on this device, no clock.
    page.click("[for=\"game-chess\"]").await;
    page.click("[for=\"mode-hotseat\"]").await;
    page.type_text("#name-white", "ana", false).await;
    page.type_text("#name-black", "bo", false).await;
    page.click("#create").await;
    game_id(&page).await;
    page.wait_for_el(".board [data-spot]").await;
    page.screenshot(&screenshot_path("chess-start")).await;

    click_move(&page, "0,4,1", "0,4,3").await; // e4
    click_move(&page, "0,4,6", "0,4,4").await; // e5
    // Bc4 by dragging the bishop.
    page.drag("[data-spot=\"0,5,0\"]", "[data-spot=\"0,2,3\"]")
        .await;
    wait_moves(&page, 3).await;
    click_move(&page, "0,1,7", "0,2,5").await; // Nc6
    click_move(&page, "0,3,0", "0,7,4").await; // Qh5
    click_move(&page, "0,6,7", "0,5,5").await; // Nf6
    // The last move is shown on its two squares.
    assert_eq!(
        page.eval("document.querySelectorAll('.mark.last').length")
            .await,
        json!(2)
    );
    click_move(&page, "0,7,4", "0,5,6").await; // Qxf7#
    assert_eq!(
        notations(&page).await,
        ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    );
    let banner = page.wait_for("!document.querySelector('.banner').hidden && document.querySelector('.banner').textContent").await;
    let banner = banner.as_str().unwrap();
    assert!(banner.contains("White wins"), "{banner}");
    assert!(banner.contains("Black is checkmated"), "{banner}");
    assert!(page.eval("!!document.querySelector('.mark.check')").await == json!(true));
    // The live region announced the mate.
    page.wait_for("document.getElementById('announcer').textContent.includes('Game over')")
        .await;
    page.screenshot(&screenshot_path("chess-scholars-mate"))
        .await;

    // Review: the position after 2 moves has the pawns on e4 and e5, and no queen on f7.
    page.click("[data-ply=\"2\"]").await;
    page.wait_for("document.querySelector('.review-note').textContent.includes('2')")
        .await;
    assert_eq!(
        page.eval("!!document.querySelector('[data-piece=\"0,4,3\"]') && !document.querySelector('[data-piece=\"0,5,6\"] .light')").await,
        json!(true)
    );
    page.screenshot(&screenshot_path("chess-review")).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_to_a_flying_general_attempt() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    page.click("[for=\"game-xiangqi\"]").await;
    page.click("#create").await;
    game_id(&page).await;
    page.wait_for_el(".board-xiangqi [data-spot]").await;
    // Chinese characters on the pieces, the river and the palaces.
    let text = page
        .eval("document.querySelector('.board-xiangqi').textContent")
        .await;
    for c in ["帥", "將", "俥", "砲", "卒", "楚 河"] {
        assert!(
            text.as_str().unwrap().contains(c),
            "{c} missing from {text}"
        );
    }
    click_move(&page, "0,4,3", "0,4,4").await; // red soldier e3-e4
    click_move(&page, "0,4,6", "0,4,5").await; // black soldier e6-e5
    click_move(&page, "0,4,4", "0,4,5").await; // red takes on e5
    click_move(&page, "0,0,9", "0,0,8").await; // black chariot a9-a8
    // The red soldier on e5 alone stands between the generals: it may only go forward.
    page.click_spot("0,4,5").await;
    page.wait_for_el(".board .target").await;
    let targets = page
        .eval("document.querySelectorAll('.board .target').length")
        .await;
    assert_eq!(targets, json!(1), "only e5-e6 is legal");
    page.screenshot(&screenshot_path("xiangqi-flying-general"))
        .await;
    // Clicking the side square plays nothing.
    page.click_spot("0,3,5").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(move_count(&page).await, 4);
    // Typing it is refused by the server with its rule, rendered from the code.
    page.type_text("#move-input", "e5d5", true).await;
    let message = page
        .wait_for("document.querySelector('.message').textContent")
        .await;
    assert!(
        message
            .as_str()
            .unwrap()
            .contains("The generals would face each other on an open file"),
        "{message}"
    );
    assert_eq!(move_count(&page).await, 4);
    let kept = page
        .eval("document.getElementById('move-input').value")
        .await;
    assert_eq!(
        kept,
        json!("e5d5"),
        "a refused move is given back to be corrected"
    );
    // Typing a legal move in WXF plays it; the field is cleared as it is submitted,
    // before the server answers, so the next move can be typed at once.
    let cleared = page
        .eval("(() => { const i = document.getElementById('move-input'); i.value = 'P5+1'; i.form.requestSubmit(); return i.value; })()")
        .await;
    assert_eq!(cleared, json!(""), "the field empties on submit");
    wait_moves(&page, 5).await;
    assert_eq!(notations(&page).await[4], "P5+1");
    page.screenshot(&screenshot_path("xiangqi")).await;

    // Chinese move notation, as an option.
    page.click("[for=\"opt-chinese-notation\"]").await;
    page.wait_for("document.querySelector('.move-list .move').textContent === '兵五进一'")
        .await;
    assert_eq!(
        notations(&page).await,
        ["兵五进一", "卒５进１", "兵五进一", "车１进１", "兵五进一"]
    );
    // Western pieces: WXF letters, then drawn symbols.
    let style = |value: &str| {
        format!(
            "(() => {{ const s = document.getElementById('opt-pieces'); s.value = '{value}'; s.dispatchEvent(new Event('change')); return true; }})()"
        )
    };
    page.eval(&style("letters")).await;
    page.wait_for("document.querySelector('[data-piece=\"0,4,0\"] .glyph').textContent === 'K'")
        .await;
    page.eval(&style("symbols")).await;
    page.wait_for("document.querySelectorAll('.board-xiangqi .piece .symbol').length === 31")
        .await;
    page.screenshot(&screenshot_path("xiangqi-symbols")).await;
    // The choice is remembered.
    let here = page.eval("location.href").await;
    page.goto(here.as_str().unwrap()).await;
    page.wait_for("document.querySelectorAll('.board-xiangqi .piece .symbol').length === 31")
        .await;
    page.wait_for("document.querySelector('.move-list .move')?.textContent === '兵五进一'")
        .await;
    h.assert_no_console_errors(&["400"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draughts_multi_capture_with_a_path_choice() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    page.click("[for=\"game-draughts\"]").await;
    // Black's man on 2 can take 6 and 14, or 7 and 15, landing on 18 either way.
    page.type_text("#position", "B:W6,7,14,15:B2", false).await;
    page.click("#create").await;
    game_id(&page).await;
    page.wait_for_el(".board-draughts [data-spot]").await;
    assert_eq!(
        page.eval("document.querySelectorAll('[data-piece]').length")
            .await,
        json!(5)
    );
    page.click_spot("0,3,7").await; // square 2
    page.wait_for_el(".board .target").await;
    page.click_spot("0,3,3").await; // square 18
    page.wait_for_el(".path-option").await;
    let options = page
        .eval("[...document.querySelectorAll('.path-option')].map(b => b.textContent).sort()")
        .await;
    assert_eq!(options, json!(["2×11×18", "2×9×18"]));
    assert_eq!(
        page.eval("document.querySelectorAll('.mark.path-choice').length")
            .await,
        json!(2)
    );
    page.screenshot(&screenshot_path("draughts-path-choice"))
        .await;
    // Choose the path through 11 by clicking that square on the board.
    page.click_spot("0,5,5").await;
    wait_moves(&page, 1).await;
    assert_eq!(notations(&page).await, ["2x11x18"]);
    let white_left = page
        .eval("[...document.querySelectorAll('[data-piece] .piece.white')].length")
        .await;
    assert_eq!(white_left, json!(2));
    page.screenshot(&screenshot_path("draughts-after-capture"))
        .await;

    // A 10x10 board with 50 numbered squares.
    let created = create_game(&h, json!({"game": "draughts", "variant": "international"})).await;
    open_hotseat(&h, &page, &created).await;
    assert_eq!(
        page.eval("document.querySelectorAll('.board-draughts .coord.number').length")
            .await,
        json!(50)
    );
    click_move(&page, "0,3,3", "0,4,4").await; // 32-28
    // No square number is covered by a piece: each number's box stays outside the disc
    // of the piece on its square.
    let covered = page
        .eval(
            "[...document.querySelectorAll('.board-draughts .coord.number')].filter(t => { \
               const b = t.getBBox(); \
               return [...document.querySelectorAll('.board-draughts [data-piece] .disc')].some(c => { \
                 const m = c.closest('[data-piece]').transform.baseVal.consolidate().matrix; \
                 const cx = m.e + c.cx.baseVal.value, cy = m.f + c.cy.baseVal.value, r = c.r.baseVal.value; \
                 const nx = Math.max(b.x, Math.min(cx, b.x + b.width)), ny = Math.max(b.y, Math.min(cy, b.y + b.height)); \
                 return Math.hypot(nx - cx, ny - cy) < r; }); }).map(t => t.textContent)",
        )
        .await;
    assert_eq!(covered, json!([]), "square numbers under pieces");
    page.screenshot(&screenshot_path("draughts-international"))
        .await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess3d_promotion_and_level_move() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    // The start: three boards, black moves first; the black king goes down a level.
    let created = create_game(&h, json!({"game": "chess3d"})).await;
    open_hotseat(&h, &page, &created).await;
    assert_eq!(
        page.eval("document.querySelectorAll('.board-chess3d').length")
            .await,
        json!(3)
    );
    // At 1280 px the three boards share the width, the panel goes below them.
    let widths = page
        .eval("[...document.querySelectorAll('.board-chess3d')].map(b => b.getBoundingClientRect().width)")
        .await;
    for w in widths.as_array().unwrap() {
        assert!(w.as_f64().unwrap() >= 380.0, "chess3d boards {widths}");
    }
    assert_eq!(
        page.eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true)
    );
    click_move(&page, "1,4,7", "0,4,7").await;
    assert_eq!(notations(&page).await, ["R-0-H5"]);
    // The level move is shown on both boards.
    assert_eq!(
        page.eval("[...document.querySelectorAll('.board-chess3d')].map(b => b.querySelectorAll('.mark.last').length)").await,
        json!([1, 1, 0])
    );
    page.screenshot(&screenshot_path("chess3d-level-move"))
        .await;
    // The short form in the move box.
    page.type_text("#move-input", "P-0-C3", true).await;
    wait_moves(&page, 2).await;

    // A white pawn on level 2 promotes: it becomes a piece on level 0.
    let created = create_game(
        &h,
        json!({"game": "chess3d", "position": "8/8/8/8/8/8/8/8|3dr3/8/8/8/8/8/8/3DR3|8/P7/8/8/8/8/8/8 w 0 1 0000000000000000"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    click_move(&page, "2,0,6", "2,0,7").await;
    let level0 = page
        .eval("document.querySelector('.board-chess3d[data-level=\"0\"]').querySelectorAll('[data-piece]').length")
        .await;
    assert_eq!(level0, json!(1), "the promoted piece stands on level 0");
    let level2 = page
        .eval("document.querySelector('.board-chess3d[data-level=\"2\"]').querySelectorAll('[data-piece]').length")
        .await;
    assert_eq!(level2, json!(0));
    page.screenshot(&screenshot_path("chess3d-promotion")).await;

    // White's dama takes Black's two squares up column 4 of level 1: the game is over, and the
    // taken dama is shown beside White.
    let created = create_game(
        &h,
        json!({"game": "chess3d", "position": "8/8/8/8/8/8/8/8|3dr3/8/3D4/8/8/8/8/4R3|8/8/8/8/8/8/8/8 w 0 1 0000000000000000"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    click_move(&page, "1,3,5", "1,3,7").await;
    let banner = page.wait_for("!document.querySelector('.banner').hidden && document.querySelector('.banner').textContent").await;
    assert!(
        banner.as_str().unwrap().contains("White captured the dama"),
        "{banner}"
    );
    assert_eq!(
        page.eval("document.querySelector('.player.bottom .captured').getAttribute('aria-label')")
            .await,
        json!("Captured: dama")
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.player.bottom .captured .captured-d').length")
            .await,
        json!(1)
    );
    page.screenshot(&screenshot_path("chess3d-dama-captured"))
        .await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_game_between_two_browsers() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let ana = h.page().await;
    let bo = h.page().await; // another browser context: its own storage
    ana.goto(&h.url("/")).await;
    ana.click("[for=\"mode-online\"]").await;
    ana.click("#create").await;
    let link = ana
        .wait_for("document.getElementById('invite-link')?.value")
        .await;
    let link = link.as_str().unwrap().to_owned();
    assert!(link.contains("#seat="), "{link}");
    ana.screenshot(&screenshot_path("online-invite")).await;
    ana.click("#open-board").await;
    ana.wait_for_el(".board [data-spot]").await;

    bo.goto(&link).await;
    bo.wait_for_el(".board [data-spot]").await;
    // The token left the address bar; Black sees the board from Black's side.
    assert_eq!(bo.eval("location.hash").await, json!(""));
    assert!(bo.text().await.contains("Waiting for White"));
    assert_eq!(
        bo.eval("document.querySelector('.player.bottom .name').textContent")
            .await,
        json!("Black")
    );

    click_move(&ana, "0,4,1", "0,4,3").await;
    wait_moves(&bo, 1).await;
    click_move(&bo, "0,4,6", "0,4,4").await;
    wait_moves(&ana, 2).await;
    // Ana may not move Black's pieces.
    ana.click_spot("0,3,6").await;
    assert_eq!(
        ana.eval("document.querySelectorAll('.board .target').length")
            .await,
        json!(0)
    );
    // A draw offer reaches the other browser, which declines it.
    ana.click_spot("0,6,0").await;
    ana.click_spot("0,5,2").await;
    wait_moves(&bo, 3).await;
    bo.wait_for("[...document.querySelectorAll('.actions button')].some(b => b.textContent === 'Offer draw')").await;
    bo.eval("[...document.querySelectorAll('.actions button')].find(b => b.textContent === 'Offer draw').id = 'offer'").await;
    bo.click("#offer").await;
    ana.wait_for("document.querySelector('.offers').textContent.includes('Black offers a draw')")
        .await;
    ana.screenshot(&screenshot_path("online-white")).await;
    bo.screenshot(&screenshot_path("online-black")).await;
    // White declines: the offer goes on both pages, and Black is told.
    click_button(&ana, ".offers", "Decline").await;
    bo.wait_for(
        "document.querySelector('.offers').textContent === 'Your draw offer was declined.'",
    )
    .await;
    ana.wait_for("document.querySelector('.offers').textContent === ''")
        .await;

    // White asks to take back Nf3; Black accepts in the other browser.
    click_button(&ana, ".actions", "Take back").await;
    bo.wait_for(
        "document.querySelector('.offers').textContent.includes('White asks to take back a move')",
    )
    .await;
    click_button(&bo, ".offers", "Accept").await;
    wait_moves(&ana, 2).await;
    wait_moves(&bo, 2).await;
    ana.wait_for("document.querySelector('.status').textContent.includes('Your move')")
        .await;

    // A third browser watching: no seat, told so.
    let watcher = h.page().await;
    let id = game_id(&ana).await;
    watcher.goto(&h.url(&format!("/game/{id}"))).await;
    watcher
        .wait_for("document.querySelector('.status').textContent.includes('watching')")
        .await;
    assert_eq!(move_count(&watcher).await, 2);

    // White offers a draw, Black accepts: the game ends on every page.
    click_button(&ana, ".actions", "Offer draw").await;
    bo.wait_for("document.querySelector('.offers').textContent.includes('White offers a draw')")
        .await;
    click_button(&bo, ".offers", "Accept").await;
    for page in [&ana, &bo, &watcher] {
        let banner = page.wait_for("!document.querySelector('.banner').hidden && document.querySelector('.banner').textContent").await;
        assert!(
            banner.as_str().unwrap().contains("agreed by both players"),
            "{banner}"
        );
    }
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    page.click("[for=\"mode-computer\"]").await;
    for (id, value) in [("level", "2"), ("clock", "5+3")] {
        page.eval(&format!(
            "(() => {{ const s = document.getElementById('{id}'); s.value = '{value}'; s.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .await;
    }
    page.click("#create").await;
    game_id(&page).await;
    page.wait_for_el(".board [data-spot]").await;
    assert!(page.text().await.contains("Computer, level 2"));
    click_move(&page, "0,3,1", "0,3,3").await; // d4
    wait_moves(&page, 2).await; // the computer answers
    click_move(&page, "0,2,1", "0,2,3").await; // c4
    wait_moves(&page, 4).await;
    // Clocks run: two timers, the running one marked.
    assert_eq!(
        page.eval("document.querySelectorAll('.clock').length")
            .await,
        json!(2)
    );
    page.screenshot(&screenshot_path("computer")).await;
    // Take back: our move and the computer's answer go.
    page.eval("[...document.querySelectorAll('.actions button')].find(b => b.textContent === 'Take back').id = 'takeback'").await;
    page.click("#takeback").await;
    wait_moves(&page, 2).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn languages_switch_and_are_remembered() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    assert_eq!(
        page.eval("import('/js/i18n.js').then(m => m.missingKeys())")
            .await,
        json!([])
    );
    assert_eq!(
        page.eval("document.querySelector('h1').textContent").await,
        json!("New game")
    );
    let choose = |code: &str| {
        format!(
            "(() => {{ const s = document.getElementById('language'); s.value = '{code}'; s.dispatchEvent(new Event('change')); return true; }})()"
        )
    };
    page.eval(&choose("es")).await;
    page.wait_for("document.querySelector('h1').textContent === 'Nueva partida'")
        .await;
    assert_eq!(
        page.eval("document.documentElement.lang").await,
        json!("es")
    );
    page.screenshot(&screenshot_path("lobby-es")).await;
    // Remembered after a reload.
    page.goto(&h.url("/")).await;
    page.wait_for("document.querySelector('h1').textContent === 'Nueva partida'")
        .await;
    page.eval(&choose("zh-CN")).await;
    page.wait_for("document.querySelector('h1').textContent === '新对局'")
        .await;
    page.screenshot(&screenshot_path("lobby-zh")).await;
    // A game page in Chinese: xiangqi, with the outcome in Chinese after resigning.
    page.click("[for=\"game-xiangqi\"]").await;
    page.click("#create").await;
    game_id(&page).await;
    page.wait_for_el(".board-xiangqi [data-spot]").await;
    assert!(page.text().await.contains("红方走棋"));
    // A refused move is explained in Chinese, from its code: no English server text.
    page.type_text("#move-input", "a3a2", true).await;
    let message = page
        .wait_for("document.querySelector('.message').textContent")
        .await;
    let message = message.as_str().unwrap();
    assert!(message.contains("兵（卒）不能后退"), "{message}");
    assert!(!message.contains("soldier"), "{message}");
    page.eval("[...document.querySelectorAll('.actions button')].find(b => b.textContent === '认输').id = 'resign'").await;
    page.click("#resign").await;
    page.eval("[...document.querySelectorAll('.actions button')].find(b => b.textContent === '确定认输？').id = 'sure'").await;
    page.click("#sure").await;
    let banner = page.wait_for("!document.querySelector('.banner').hidden && document.querySelector('.banner').textContent").await;
    assert!(banner.as_str().unwrap().contains("红方认输"), "{banner}");
    page.screenshot(&screenshot_path("xiangqi-zh")).await;
    // Spanish on the same game page, switched live.
    page.eval(&choose("es")).await;
    page.wait_for("document.querySelector('.banner').textContent.includes('Rojas abandonan')")
        .await;
    h.assert_no_console_errors(&["400"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_sized_screen() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.browser.page(390, 844).await;
    page.goto(&h.url("/")).await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(page.eval(fits).await, json!(true));
    page.screenshot(&screenshot_path("phone-lobby")).await;
    for (game, name) in [
        ("chess", "phone-chess"),
        ("xiangqi", "phone-xiangqi"),
        ("chess3d", "phone-chess3d"),
    ] {
        let created = create_game(&h, json!({"game": game})).await;
        open_hotseat(&h, &page, &created).await;
        assert_eq!(
            page.eval(fits).await,
            json!(true),
            "{game} overflows a phone screen"
        );
        let width = page
            .eval("document.querySelector('.board').getBoundingClientRect().width")
            .await;
        assert!(
            width.as_f64().unwrap() > 300.0,
            "{game}: board {width} px wide"
        );
        page.screenshot(&screenshot_path(name)).await;
    }
    // One level at a time on a phone: the level tabs reach the king on level 1 and its
    // move down to level 0.
    page.click(".level-tabs [data-level=\"1\"]").await;
    page.click_spot("1,4,7").await;
    page.wait_for(
        "document.querySelector('.level-tabs [data-level=\"0\"] .count')?.textContent === '1'",
    )
    .await;
    page.click(".level-tabs [data-level=\"0\"]").await;
    page.click_spot("0,4,7").await;
    wait_moves(&page, 1).await;
    assert_eq!(notations(&page).await, ["R-0-H5"]);
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promotion_to_a_knight_and_a_claimed_repetition() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    // The a-pawn promotes: the chooser offers four pieces, the knight is taken.
    let created = create_game(
        &h,
        json!({"game": "chess", "position": "8/P6k/8/8/8/8/8/K7 w - - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    page.click_spot("0,0,6").await;
    page.wait_for_el(".board .target").await;
    page.click_spot("0,0,7").await;
    page.wait_for_el(".dialog .promo").await;
    assert_eq!(
        page.eval("[...document.querySelectorAll('.promo')].map(b => b.dataset.promotion)")
            .await,
        json!(["q", "r", "b", "n"])
    );
    assert_eq!(
        page.eval("document.querySelector('[data-promotion=\"n\"]').getAttribute('aria-label')")
            .await,
        json!("Knight")
    );
    page.screenshot(&screenshot_path("chess-promotion")).await;
    page.click("[data-promotion=\"n\"]").await;
    wait_moves(&page, 1).await;
    let played = &notations(&page).await[0];
    assert!(played.starts_with("a8=N"), "{played}");
    assert_eq!(
        page.eval("document.querySelector('[data-spot=\"0,0,7\"]').getAttribute('aria-label')")
            .await,
        json!("a8, White knight")
    );
    assert_eq!(
        page.eval("document.querySelector('.overlay').hidden").await,
        json!(true)
    );

    // Threefold repetition in hot-seat: the side to move claims it.
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    type_moves(&page, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]).await;
    assert_eq!(
        page.eval("[...document.querySelectorAll('.actions button')].some(b => b.textContent === 'Claim draw')")
            .await,
        json!(false),
        "no claim before the third occurrence"
    );
    type_moves(&page, &["Ng8"]).await;
    click_button(&page, ".actions", "Claim draw").await;
    let banner = page.wait_for("!document.querySelector('.banner').hidden && document.querySelector('.banner').textContent").await;
    let banner = banner.as_str().unwrap();
    assert!(banner.contains("Draw"), "{banner}");
    assert!(banner.contains("threefold repetition"), "{banner}");
    page.screenshot(&screenshot_path("chess-threefold")).await;
    h.assert_no_console_errors(&[]);
}

/// The accessible name of the focused element and its spot.
async fn focused(page: &Page<'_>) -> (String, String) {
    let v = page
        .eval("[document.activeElement.getAttribute('aria-label'), document.activeElement.getAttribute('data-spot')]")
        .await;
    (
        v[0].as_str().unwrap_or_default().to_owned(),
        v[1].as_str().unwrap_or_default().to_owned(),
    )
}

async fn keys(page: &Page<'_>, keys: &[&str]) {
    for key in keys {
        page.press_key(key).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyboard_only_play_and_captured_pieces() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    // From the last control of the header, Tab reaches the board: one square is in the
    // tab order, the bottom-left corner.
    page.eval("document.getElementById('sound').focus(); true")
        .await;
    page.press_key("Tab").await;
    assert_eq!(
        focused(&page).await,
        ("a1, White rook".to_owned(), "0,0,0".to_owned())
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.board [tabindex=\"0\"]').length")
            .await,
        json!(1)
    );
    // The board tells screen readers which keys play.
    let help = page
        .eval("document.getElementById(document.querySelector('.board').getAttribute('aria-describedby')).textContent")
        .await;
    assert!(help.as_str().unwrap().contains("arrow keys"), "{help}");
    keys(&page, &["ArrowRight"; 4]).await;
    assert_eq!(focused(&page).await.0, "e1, White king");
    page.press_key("ArrowUp").await;
    assert_eq!(focused(&page).await.0, "e2, White pawn");
    page.press_key("Enter").await;
    page.wait_for_el(".board .target").await;
    assert_eq!(focused(&page).await.0, "e2, White pawn, selected");
    keys(&page, &["ArrowUp", "ArrowUp"]).await;
    assert_eq!(focused(&page).await.0, "e4, legal move");
    page.screenshot(&screenshot_path("chess-keyboard")).await;
    page.press_key("Enter").await;
    wait_moves(&page, 1).await;
    // The focus stays on the board, on the square of the move.
    page.wait_for("document.activeElement.getAttribute('data-spot') === '0,4,3'")
        .await;
    assert_eq!(focused(&page).await.0, "e4, White pawn");
    // Black's d5 and White's exd5, with the keyboard (Space selects as Enter does).
    keys(&page, &["ArrowLeft", "ArrowUp", "ArrowUp", "ArrowUp", " "]).await;
    assert_eq!(focused(&page).await.0, "d7, Black pawn, selected");
    keys(&page, &["ArrowDown", "ArrowDown", "Enter"]).await;
    wait_moves(&page, 2).await;
    keys(
        &page,
        &[
            "ArrowRight",
            "ArrowDown",
            "Enter",
            "ArrowLeft",
            "ArrowUp",
            "Enter",
        ],
    )
    .await;
    wait_moves(&page, 3).await;
    assert_eq!(notations(&page).await, ["e4", "d5", "exd5"]);

    // Captured pieces beside the board: White has taken a pawn.
    page.wait_for("document.querySelector('.player.bottom .captured')?.getAttribute('aria-label') === 'Captured: pawn'")
        .await;
    // The queens come off: Black's queen takes on d5 and d2, and is taken.
    type_moves(&page, &["Qxd5", "Nc3", "Qxd2+", "Bxd2"]).await;
    let white = page
        .eval("document.querySelector('.player.bottom .captured').getAttribute('aria-label')")
        .await;
    assert_eq!(white, json!("Captured: queen, pawn"));
    let black = page
        .eval("document.querySelector('.player.top .captured').getAttribute('aria-label')")
        .await;
    assert_eq!(black, json!("Captured: pawn, pawn"));
    assert_eq!(
        page.eval("document.querySelectorAll('.player.bottom .captured .captured-q').length")
            .await,
        json!(1)
    );
    page.screenshot(&screenshot_path("chess-captured")).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_download_and_import_by_paste() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(
        &h,
        json!({"game": "chess", "players": {"white": {"name": "ana"}}}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    type_moves(&page, &["e4", "e5", "Nf3"]).await;
    // The download link: a file named for the game, holding the PGN with the moves.
    let link = page
        .eval(
            "(async () => { const a = document.querySelector('.actions a[download]'); \
             const r = await fetch(a.href); \
             return [a.textContent, r.headers.get('content-disposition'), await r.text()]; })()",
        )
        .await;
    assert_eq!(link[0], json!("Download game"));
    let id = created["id"].as_str().unwrap();
    assert!(
        link[1]
            .as_str()
            .unwrap()
            .contains(&format!("tablero-{id}.pgn")),
        "{link}"
    );
    let pgn = link[2].as_str().unwrap();
    assert!(pgn.contains("[White \"ana\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3"), "{pgn}");

    // Import by pasting a PGN in the lobby: the game opens at its last position.
    page.goto(&h.url("/")).await;
    // The lists of games above the import box load on their own: wait for them, so
    // that the box stays where it is clicked.
    page.wait_for_el(".lists .game-list").await;
    page.type_text(
        "#import-text",
        "[Event \"pasted\"]\n[White \"ana\"]\n[Black \"bo\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 *\n",
        false,
    )
    .await;
    assert!(
        page.eval("document.getElementById('import-text').value")
            .await
            .as_str()
            .unwrap()
            .contains("3. Nc3")
    );
    click_button(&page, ".import", "Import and open").await;
    game_id(&page).await;
    wait_moves(&page, 5).await;
    assert_eq!(notations(&page).await, ["d4", "d5", "c4", "e6", "Nc3"]);
    page.wait_for_el(".board [data-spot]").await;
    assert_eq!(
        page.eval("document.querySelector('[data-spot=\"0,2,2\"]').getAttribute('aria-label')")
            .await,
        json!("c3, White knight")
    );
    assert!(page.text().await.contains("Black to move"));
    assert!(page.text().await.contains("bo"));
    page.screenshot(&screenshot_path("chess-imported")).await;
    h.assert_no_console_errors(&[]);
}

/// The number of players listed on the players page.
async fn listed_players(page: &Page<'_>) -> Vec<String> {
    let v = page
        .eval(
            "[...document.querySelectorAll('#players-table tbody tr')].map(r => r.dataset.player)",
        )
        .await;
    serde_json::from_value(v).unwrap()
}

/// Waits until the report image has loaded, and returns its natural width.
async fn report_image_width(page: &Page<'_>) -> u64 {
    page.wait_for(
        "(() => { const i = document.getElementById('report-image'); \
         return i && i.complete && i.naturalWidth; })()",
    )
    .await
    .as_u64()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_import_delete_standings_and_reports() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    // A rated game: ana beats bo at chess (bo resigns). Online: a hot-seat game is
    // not rated.
    let created = create_game(
        &h,
        json!({"game": "chess", "mode": "online",
               "players": {"white": {"name": "ana"}, "black": {"name": "bo"}}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    page.goto(&h.url("/")).await;
    let black = created["invite"]["token"].as_str().unwrap();
    let status = page
        .eval(&format!(
            "fetch('/api/games/{id}/resign', {{method: 'POST', headers: {{authorization: 'Bearer {black}'}}}}).then(r => r.status)"
        ))
        .await;
    assert_eq!(status, json!(200));

    // The players page from the header: the two players of the game.
    page.click("#nav-players").await;
    page.wait_for("document.querySelectorAll('#players-table tbody tr').length === 2")
        .await;
    assert_eq!(listed_players(&page).await, ["ana", "bo"]);

    // Without the administrator's token nothing is imported.
    page.type_text("#players-text", "zoe_1_2;", false).await;
    page.click("#players-import").await;
    let refused = page
        .wait_for("document.getElementById('players-error').textContent")
        .await;
    assert!(
        refused
            .as_str()
            .unwrap_or_default()
            .contains("administrator token"),
        "{refused}"
    );
    page.eval("document.getElementById('players-text').value = ''; true")
        .await;
    page.type_text("#players-admin-token", ADMIN_TOKEN, false)
        .await;

    // A good file: four players added, listed in registration order.
    page.type_text(
        "#players-text",
        "juanca77_10_4; carlosfp81_7_6;\namaya92_12_1; jdark96_11_0;",
        false,
    )
    .await;
    page.click("#players-import").await;
    page.wait_for("document.getElementById('players-done').textContent.includes('4')")
        .await;
    page.wait_for("document.querySelectorAll('#players-table tbody tr').length === 6")
        .await;
    let all = ["ana", "bo", "juanca77", "carlosfp81", "amaya92", "jdark96"];
    assert_eq!(listed_players(&page).await, all);

    // A bad file: the server's reason names the record, and nothing changes.
    page.eval("document.getElementById('players-text').value = ''; true")
        .await;
    page.type_text("#players-text", "zoe_1_2; bad name_1_2;", false)
        .await;
    page.click("#players-import").await;
    let error = page
        .wait_for("document.getElementById('players-error').textContent")
        .await;
    let error = error.as_str().unwrap();
    assert!(
        error.contains("record 2") && error.contains("bad name"),
        "{error}"
    );
    assert_eq!(
        page.eval("document.getElementById('players-done').textContent")
            .await,
        json!("")
    );
    assert_eq!(listed_players(&page).await, all);
    let listed = page
        .eval("fetch('/api/players').then(r => r.json()).then(d => d.players.map(p => p.name))")
        .await;
    assert_eq!(listed, json!(all));

    // The overall standings: most wins first (imported counts included).
    let first = page
        .wait_for("document.querySelector('#standings-table tbody tr th')?.textContent")
        .await;
    assert_eq!(first, json!("amaya92"));
    // Chess alone: the two players of the game, with Glicko-2 ratings.
    page.eval(
        "(() => { const s = document.getElementById('standings-game'); s.value = 'chess'; \
         s.dispatchEvent(new Event('change')); return true; })()",
    )
    .await;
    page.wait_for("document.querySelectorAll('#standings-table tbody tr').length === 2")
        .await;
    let rows = page
        .eval("[...document.querySelectorAll('#standings-table tbody tr')].map(r => r.innerText.split('\\t').map(s => s.trim()))")
        .await;
    assert_eq!(rows[0][1], json!("ana"), "{rows}");
    assert_eq!(rows[0][2], json!("1"), "{rows}");
    assert_eq!(rows[1][3], json!("1"), "{rows}");
    let rating = rows[0][5].as_str().unwrap();
    let (value, deviation) = rating.split_once(" ± ").unwrap();
    assert!(value.parse::<u32>().unwrap() > 1500, "{rating}");
    assert!(deviation.parse::<u32>().unwrap() < 350, "{rating}");

    // Delete, with a confirmation: carlosfp81 goes, the others stay.
    page.click("[data-delete=\"carlosfp81\"]").await;
    page.wait_for_el("[data-confirm-delete=\"carlosfp81\"]")
        .await;
    assert_eq!(listed_players(&page).await.len(), 6);
    page.click("[data-confirm-delete=\"carlosfp81\"]").await;
    page.wait_for("document.querySelectorAll('#players-table tbody tr').length === 5")
        .await;
    assert!(
        !listed_players(&page)
            .await
            .contains(&"carlosfp81".to_owned())
    );
    // Search keeps the names containing the text.
    page.type_text("#player-search", "J", false).await;
    page.wait_for("document.querySelectorAll('#players-table tbody tr').length === 2")
        .await;
    assert_eq!(listed_players(&page).await, ["juanca77", "jdark96"]);
    page.eval(
        "(() => { const s = document.getElementById('player-search'); s.value = ''; \
         s.dispatchEvent(new Event('input')); return true; })()",
    )
    .await;
    page.wait_for("document.querySelectorAll('#players-table tbody tr').length === 5")
        .await;
    page.screenshot(&screenshot_path("players")).await;

    // The player tree from the reports page: an image, and the DOT to download.
    page.click("#nav-reports").await;
    page.wait_for_el("[for=\"report-players\"]").await;
    page.click("[for=\"report-players\"]").await;
    page.wait_for("location.search.includes('kind=players')")
        .await;
    assert!(report_image_width(&page).await > 100);
    let dot = page
        .eval("fetch(document.getElementById('report-dot').href).then(r => r.text())")
        .await;
    let dot = dot.as_str().unwrap();
    assert!(dot.starts_with("digraph"), "{dot}");
    for name in ["ana", "bo", "juanca77", "amaya92", "jdark96"] {
        assert!(dot.contains(name), "{name} missing from {dot}");
    }
    assert!(!dot.contains("carlosfp81"), "{dot}");
    page.screenshot(&screenshot_path("reports")).await;

    // The top 10 as an image too.
    page.click("[for=\"report-top10\"]").await;
    page.wait_for("location.search.includes('kind=top10')")
        .await;
    assert!(report_image_width(&page).await > 100);

    // From a game page: the board report of that game.
    page.goto(&h.url(&format!("/game/{id}"))).await;
    page.wait_for_el("#game-reports").await;
    page.click("#game-reports").await;
    page.wait_for(&format!("location.search.includes('game_id={id}')"))
        .await;
    assert!(report_image_width(&page).await > 100);
    assert_eq!(
        page.eval("document.getElementById('report-game').value")
            .await,
        json!(format!("id:{id}"))
    );
    let dot = page
        .eval("fetch(document.getElementById('report-dot').href).then(r => r.text())")
        .await;
    assert!(dot.as_str().unwrap().contains("knight"), "{dot}");
    page.screenshot(&screenshot_path("reports-board")).await;
    // Actual size: the image is no longer fitted to the page.
    page.click("#report-size").await;
    assert_eq!(
        page.eval("document.querySelector('.report-image').classList.contains('actual')")
            .await,
        json!(true)
    );

    // A chess3d game: its level is chosen, and the linear report follows the choice.
    let chess3d = create_game(&h, json!({"game": "chess3d"})).await;
    let id3 = chess3d["id"].as_str().unwrap();
    page.goto(&h.url(&format!("/reports?kind=linear&game_id={id3}")))
        .await;
    page.wait_for_el("#report-level").await;
    assert!(report_image_width(&page).await > 100);
    page.eval(
        "(() => { const s = document.getElementById('report-level'); s.value = '2'; \
         s.dispatchEvent(new Event('change')); return true; })()",
    )
    .await;
    page.wait_for("location.search.includes('level=2')").await;
    assert!(report_image_width(&page).await > 100);
    let href = page
        .eval("document.getElementById('report-dot').getAttribute('href')")
        .await;
    let href = href.as_str().unwrap();
    assert!(
        href.contains("level=2") && href.contains("order=row") && href.contains(id3),
        "{href}"
    );
    page.screenshot(&screenshot_path("reports-chess3d")).await;
    // Both pages on a phone-sized screen.
    let phone = h.browser.page(390, 844).await;
    phone.goto(&h.url("/players")).await;
    phone
        .wait_for("document.querySelectorAll('#players-table tbody tr').length === 5")
        .await;
    phone.screenshot(&screenshot_path("players-phone")).await;
    phone.goto(&h.url("/reports?kind=players")).await;
    assert!(report_image_width(&phone).await > 100);
    phone.screenshot(&screenshot_path("reports-phone")).await;
    h.assert_no_console_errors(&["players/import"]);
}

/// The file letter of each piece on White's back rank of a FEN, in FEN letters.
fn back_rank(fen: &str) -> String {
    let rank = fen.split('/').nth(7).unwrap().split(' ').next().unwrap();
    rank.chars()
        .flat_map(|c| match c.to_digit(10) {
            Some(n) => vec!['.'; n as usize],
            None => vec![c],
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess960_games_start_from_their_own_start() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let mut starts = Vec::new();
    for round in 0..3 {
        page.goto(&h.url("/")).await;
        page.click("[for=\"game-chess\"]").await;
        page.eval(
            "(() => { const s = document.getElementById('variant'); s.value = 'chess960'; s.dispatchEvent(new Event('change')); return true; })()",
        )
        .await;
        page.click("[for=\"mode-hotseat\"]").await;
        page.click("#create").await;
        let id = game_id(&page).await;
        page.wait_for_el(".board [data-spot]").await;
        let state = page
            .eval(&format!("fetch('/api/games/{id}').then(r => r.json())"))
            .await;
        let number = state["chess960_start"]
            .as_u64()
            .expect("a Chess960 start number");
        assert!(number < 960, "{state}");
        let position = state["position"].as_str().unwrap();
        // The moves panel names the start, so that it can be set up again.
        let heading = page
            .wait_for("document.getElementById('moves-heading').textContent")
            .await;
        assert!(
            heading
                .as_str()
                .unwrap()
                .contains(&format!("Chess960 start {number}")),
            "{heading}"
        );
        // The board draws the start the server chose: the king where the FEN has it,
        // and the eight back-rank pieces of each side.
        let rank = back_rank(position);
        let king = rank.find('K').unwrap();
        let label = page
            .eval(&format!(
                "document.querySelector('[data-spot=\"0,{king},0\"]').getAttribute('aria-label')"
            ))
            .await;
        assert!(
            label.as_str().unwrap().contains("king"),
            "{label} ({position})"
        );
        for column in 0..8 {
            for row in [0, 7] {
                let spot = format!("[data-piece=\"0,{column},{row}\"]");
                assert_eq!(
                    page.eval(&format!("!!document.querySelector('{spot}')"))
                        .await,
                    json!(true),
                    "{spot} in {position}"
                );
            }
        }
        page.screenshot(&screenshot_path(&format!("chess960-{round}")))
            .await;
        starts.push((number, rank));
    }
    // Three draws from 960 starts: all equal would be a one-in-921,600 accident.
    assert!(
        starts.iter().any(|s| s.0 != starts[0].0),
        "every game started from the same position: {starts:?}"
    );
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_game_page_removes_its_listeners() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    let id = created["id"].as_str().unwrap();
    let listeners = "import('/js/i18n.js').then(m => m.languageListeners())";
    page.goto(&h.url("/")).await;
    page.wait_for_el("#create").await;
    let lobby = page.eval(listeners).await;
    let lobby_keys = page.listeners("document", "keydown").await;
    // In and out of game pages through the interface's own links and history.
    for _ in 0..3 {
        page.eval(&format!(
            "import('/js/app.js').then(m => m.navigate('/game/{id}')).then(() => true)"
        ))
        .await;
        page.wait_for_el(".board [data-spot]").await;
        assert_eq!(
            page.eval(listeners).await,
            json!(lobby.as_u64().unwrap() + 1),
            "one listener for the game page shown"
        );
        assert_eq!(
            page.listeners("document", "keydown").await,
            lobby_keys + 1,
            "the game page's keys"
        );
        page.eval("history.back(); true").await;
        page.wait_for_el("#create").await;
        assert_eq!(
            page.eval(listeners).await,
            lobby,
            "the game page's listener went with it"
        );
        assert_eq!(
            page.listeners("document", "keydown").await,
            lobby_keys,
            "the game page's keys went with it"
        );
    }
    h.assert_no_console_errors(&[]);
}
