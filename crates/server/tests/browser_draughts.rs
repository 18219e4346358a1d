//! The boards' input in a real browser (see `browser.rs` for the set-up): draughts
//! played as on lidraughts (the pieces that must capture marked, a refused piece
//! explained, a capture clicked through square by square, the selected piece dropped
//! by a second press).
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use cdp::Page;
use harness::*;
use serde_json::json;

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
