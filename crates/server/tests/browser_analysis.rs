//! The analysis board in headless Chromium: the engine's evaluation, lines and arrow,
//! moves played on the board, a finished game reviewed with its blunder marked, a
//! game in progress between people refused in the page's language, and a position set
//! up from its text. See `browser.rs` for how the browser is found and run.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use harness::{Harness, create_game, screenshot_path};
use serde_json::json;

/// Plays `moves` in game `id` through the API, the tokens taking turns.
async fn play_over_http(h: &Harness, created: &serde_json::Value, moves: &[&str]) {
    let id = created["id"].as_str().unwrap().to_owned();
    let sides = ["white", "black"];
    for (i, mv) in moves.iter().enumerate() {
        let token = created["seats"][sides[i % 2]].as_str().unwrap().to_owned();
        let (addr, id, mv) = (h.addr, id.clone(), (*mv).to_owned());
        let answer = tokio::task::spawn_blocking(move || {
            harness::post_json_as(
                addr,
                &format!("/api/games/{id}/moves"),
                &json!({"move": mv}),
                &token,
            )
        })
        .await
        .unwrap();
        assert!(answer["moves"].is_array(), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_shows_its_lines_and_a_move_is_played_on_the_board() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/analysis").await;
    page.wait_for_el(".analysis .board [data-spot]").await;
    page.wait_for("document.querySelectorAll('.engine-lines li').length > 0")
        .await;
    page.wait_for_el(".best-arrow").await;
    let text = page
        .eval("document.querySelector('.eval-text').textContent")
        .await;
    assert!(text.as_str().unwrap().contains("depth"), "{text}");
    page.screenshot(&screenshot_path("analysis-start")).await;

    // e2-e4 by clicking: the move list grows and Black is to move.
    page.click_spot("0,4,1").await;
    page.wait_for_el(".board .target").await;
    page.click_spot("0,4,3").await;
    page.wait_for("document.querySelectorAll('.analysis-moves .move').length === 1")
        .await;
    page.wait_for("document.querySelector('.analysis-moves .move').textContent === 'e4'")
        .await;
    // The keyboard plays on the board too: e7 (Enter), two squares down, e5 (Enter).
    page.eval("document.querySelector('[data-spot=\"0,4,6\"]').focus(); true")
        .await;
    page.press_key("Enter").await;
    page.wait_for_el(".board .target").await;
    page.press_key("ArrowDown").await;
    page.press_key("ArrowDown").await;
    page.press_key("Enter").await;
    page.wait_for("document.querySelectorAll('.analysis-moves .move').length === 2")
        .await;
    page.press_key("Escape").await;
    page.eval("document.activeElement.blur(); true").await;
    page.press_key("ArrowLeft").await;
    page.wait_for("document.querySelector('.analysis-moves .move.current')?.textContent === 'e4'")
        .await;
    // Back to the start and forward again with the keys.
    page.press_key("ArrowLeft").await;
    page.wait_for("!document.querySelector('.analysis-moves .move.current')")
        .await;
    page.press_key("ArrowRight").await;
    page.wait_for_el(".analysis-moves .move.current").await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_and_its_blunder_marked() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let created = create_game(
        &h,
        json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"name": "bo"}}}),
    )
    .await;
    play_over_http(&h, &created, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let id = created["id"].as_str().unwrap();
    let page = h.open(&format!("/analysis?id={id}&ply=3")).await;
    page.wait_for("document.querySelectorAll('.analysis-moves .move').length === 4")
        .await;
    // The game's own notation, numbered as the game counts its moves.
    let moves = page
        .eval("[...document.querySelectorAll('.analysis-moves li')].map(li => li.textContent)")
        .await;
    assert_eq!(moves, json!(["1.f3", "1…e5", "2.g4", "2…Qh4#"]));
    // At ply 3 the engine sees the mate.
    page.wait_for("document.querySelector('.engine-lines li')?.textContent.includes('Qh4#')")
        .await;
    page.click("#review-game").await;
    page.wait_for("document.querySelector('.review-progress').textContent.includes('Blunders')")
        .await;
    // g4 lets mate in one: a blunder, marked `??`.
    let marked = page
        .eval("[...document.querySelectorAll('.analysis-moves .move.blunder')].map(b => b.textContent)")
        .await;
    assert!(
        marked.as_array().unwrap().iter().any(|m| m == "g4??"),
        "{marked}"
    );
    // Each move shows the evaluation it led to; after g4 Black mates.
    let evals = page
        .eval(
            "[...document.querySelectorAll('.analysis-moves .move-eval')].map(e => e.textContent)",
        )
        .await;
    assert_eq!(evals.as_array().unwrap().len(), 4, "{evals}");
    assert_eq!(evals[2], "-#", "{evals}");
    page.screenshot(&screenshot_path("analysis-review")).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_of_a_game_in_progress_gets_no_engine_an_onlooker_does() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let created = create_game(
        &h,
        json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"name": "bo"}}}),
    )
    .await;
    play_over_http(&h, &created, &["e2e4"]).await;
    let id = created["id"].as_str().unwrap();
    // This browser holds White's seat: the page sends its token, the server refuses, and
    // the page says so in Spanish.
    let page = h.open("/").await;
    let seats = created["seats"].to_string();
    page.eval(&format!(
        "localStorage.setItem('tablero.lang', 'es'); \
         localStorage.setItem('tablero.seats', JSON.stringify({{{id:?}: {{white: {seats}.white}}}})); true"
    ))
    .await;
    page.goto(&h.url(&format!("/analysis?id={id}"))).await;
    page.wait_for_el(".analysis .board [data-spot]").await;
    let message = page
        .wait_for("document.querySelector('.analysis .message').textContent || false")
        .await;
    assert!(
        message.as_str().unwrap().contains("Sus jugadores"),
        "{message}"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.engine-lines li').length")
            .await,
        json!(0)
    );
    // Without the seat, an onlooker: the engine answers.
    page.eval("localStorage.removeItem('tablero.seats'); true")
        .await;
    page.goto(&h.url(&format!("/analysis?id={id}"))).await;
    page.wait_for("document.querySelectorAll('.engine-lines li').length > 0")
        .await;
    h.assert_no_console_errors(&["409"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_is_set_up_from_its_text() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/analysis").await;
    page.wait_for_el("#setup-game").await;
    page.eval(
        "const g = document.getElementById('setup-game'); g.value = 'xiangqi'; \
         g.dispatchEvent(new Event('change')); true",
    )
    .await;
    page.wait_for("document.getElementById('setup-variant').value === 'standard'")
        .await;
    // Red to move with a chariot against a bare general: the engine finds the mate.
    page.type_text(
        "#setup-position",
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
        true,
    )
    .await;
    page.wait_for("!!document.querySelector('.board-xiangqi')")
        .await;
    page.wait_for("document.querySelector('.eval-text').textContent.includes('mates')")
        .await;
    page.screenshot(&screenshot_path("analysis-xiangqi")).await;
    h.assert_no_console_errors(&[]);
}

/// Presses the editor's tool labelled `label` (a side and a piece, or "Remove pieces").
async fn choose_tool(page: &cdp::Page<'_>, label: &str) {
    let found = page
        .eval(&format!(
            "(() => {{ const b = [...document.querySelectorAll('.editor .tool')].find(b => b.getAttribute('aria-label') === {label:?}); if (b) b.click(); return !!b; }})()"
        ))
        .await;
    assert_eq!(found, json!(true), "no tool {label}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_is_set_up_piece_by_piece() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/analysis").await;
    page.wait_for_el("#edit-position").await;
    page.click("#edit-position").await;
    page.wait_for_el(".editor .tool").await;
    page.click("#editor-clear").await;
    page.wait_for("document.querySelectorAll('.analysis .board [data-piece]').length === 0")
        .await;
    choose_tool(&page, "White king").await;
    page.click_spot("0,4,0").await;
    choose_tool(&page, "White queen").await;
    page.click_spot("0,3,0").await;
    // A press on a piece of the chosen kind takes it off again.
    page.click_spot("0,3,0").await;
    page.click_spot("0,3,0").await;
    // Only one king: refused, named, and the editor stays.
    page.click("#editor-done").await;
    page.wait_for("document.querySelector('.analysis .message').textContent.includes('king')")
        .await;
    assert_eq!(
        page.eval("!document.querySelector('.editor').hidden").await,
        json!(true)
    );
    choose_tool(&page, "Black king").await;
    page.click_spot("0,4,7").await;
    page.screenshot(&screenshot_path("analysis-editor")).await;
    page.click("#editor-done").await;
    page.wait_for(
        "document.getElementById('setup-position')?.value === '4k3/8/8/8/8/8/8/3QK3 w - - 0 1'",
    )
    .await;
    // The engine analyses the new position.
    page.wait_for("document.querySelectorAll('.engine-lines li').length > 0")
        .await;
    h.assert_no_console_errors(&["400"]);
}
