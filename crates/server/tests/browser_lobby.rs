//! The lobby's lists and the pages' accessibility in a real browser (see `browser.rs`
//! for the set-up): "My games" holds the games whose seats this browser keeps, in
//! progress first with whose move it is, every finished game with its result, filtered
//! by game and status and paged; axe-core finds no violation on any page, in English
//! and Chinese.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use std::path::PathBuf;

use cdp::Page;
use harness::*;
use serde_json::{Value, json};

/// Plays `action` (`moves`, `resign`, `draw/offer`, ...) on `game` with `side`'s seat.
async fn act(h: &Harness, game: &Value, side: &str, action: &str, body: Value) -> Value {
    let addr = h.addr;
    let path = format!("/api/games/{}/{action}", game["id"].as_str().unwrap());
    let token = game["seats"][side].as_str().unwrap().to_owned();
    tokio::task::spawn_blocking(move || post_json_as(addr, &path, &body, &token))
        .await
        .unwrap()
}

/// Gives this browser the seats of `games` (the lobby reads them on its next visit).
async fn hold_seats(page: &Page<'_>, games: &[&Value]) {
    let seats: serde_json::Map<String, Value> = games
        .iter()
        .map(|g| (g["id"].as_str().unwrap().to_owned(), g["seats"].clone()))
        .collect();
    page.eval(&format!(
        "localStorage.setItem('tablero.seats', JSON.stringify({})); true",
        Value::Object(seats)
    ))
    .await;
}

/// The texts of the entries of the lobby's list `list` (`mine`, `ongoing`, `finished`).
async fn entries(page: &Page<'_>, list: &str) -> Vec<String> {
    let texts = page
        .eval(&format!(
            "[...document.querySelectorAll('.games.{list} li')].map(li => li.textContent)"
        ))
        .await;
    serde_json::from_value(texts).unwrap()
}

async fn set_lang(h: &Harness, page: &Page<'_>, lang: &str) {
    page.goto(&h.url("/")).await;
    page.eval(&format!(
        "localStorage.setItem('tablero.lang', '{lang}'); true"
    ))
    .await;
}

/// Chooses `value` in the lobby's select `id` as a person would.
async fn choose(page: &Page<'_>, id: &str, value: &str) {
    page.eval(&format!(
        "(s => {{ s.value = '{value}'; s.dispatchEvent(new Event('change')); }})\
         (document.getElementById('{id}')); true"
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_are_listed_with_their_turn_and_result_filtered_and_paged() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let won = create_game(&h, json!({"game": "chess"})).await;
    act(&h, &won, "white", "moves", json!({"move": "e2e4"})).await;
    act(&h, &won, "black", "resign", json!({})).await;
    let drawn = create_game(&h, json!({"game": "chess"})).await;
    act(&h, &drawn, "white", "draw/offer", json!({})).await;
    act(&h, &drawn, "black", "draw/accept", json!({})).await;
    // An online game of which this browser holds red's seat only, red to move.
    let online = create_game(
        &h,
        json!({"game": "xiangqi", "mode": "online", "side": "red"}),
    )
    .await;
    let mut playing = Vec::new();
    for _ in 0..31 {
        playing.push(create_game(&h, json!({"game": "draughts"})).await);
    }
    let strangers = create_game(&h, json!({"game": "chess"})).await;

    let page = h.page().await;
    page.goto(&h.url("/")).await;
    let mut mine: Vec<&Value> = vec![&won, &drawn, &online];
    mine.extend(&playing);
    hold_seats(&page, &mine).await;
    page.goto(&h.url("/")).await;
    page.wait_for_el(".games.mine li").await;

    // The first page: 30 games, all in progress (34 are, counting the 31 draughts
    // games and the xiangqi one, and the stranger's game is not ours).
    let first = entries(&page, "mine").await;
    assert_eq!(first.len(), 30, "{first:#?}");
    assert!(first.iter().all(|e| e.contains(" to move")), "{first:#?}");
    let strangers_link = format!(
        "document.querySelector('.games.mine a[href=\"/game/{}\"]') === null",
        strangers["id"].as_str().unwrap()
    );
    assert_eq!(page.eval(&strangers_link).await, json!(true));
    assert_eq!(
        page.eval("document.querySelector('.games.mine .more').checkVisibility()")
            .await,
        json!(true)
    );

    // More: the last two in progress, then the finished ones, and no more button.
    page.click(".games.mine .more").await;
    page.wait_for("document.querySelectorAll('.games.mine li').length === 34")
        .await;
    let all = entries(&page, "mine").await;
    assert!(all[..32].iter().all(|e| e.contains(" to move")), "{all:#?}");
    assert!(
        all.iter()
            .any(|e| e.starts_with("Xiangqi") && e.ends_with("Red to move · your move")),
        "{all:#?}"
    );
    // Two players on this device: whose move it is (black begins in checkers), but
    // not "your move".
    assert!(
        all.iter()
            .any(|e| e.starts_with("Draughts") && e.ends_with("0 plies Black to move")),
        "{all:#?}"
    );
    assert!(
        all[32..]
            .iter()
            .any(|e| e.ends_with("0–1 Black wins · White resigned"))
            || all[32..]
                .iter()
                .any(|e| e.ends_with("1–0 White wins · Black resigned")),
        "{all:#?}"
    );
    assert!(
        all[32..]
            .iter()
            .any(|e| e.ends_with("½–½ Draw · agreed by both players")),
        "{all:#?}"
    );
    assert_eq!(
        page.eval("document.querySelector('.games.mine .more').checkVisibility()")
            .await,
        json!(false)
    );
    // The next page took the keyboard's focus from the vanished button.
    assert_eq!(
        page.eval("document.activeElement.closest('.games.mine li') !== null")
            .await,
        json!(true)
    );

    page.eval("scrollTo(0, 0); true").await;
    page.screenshot(&screenshot_path("lobby-my-games")).await;

    // Filters: finished chess games only, in every list.
    choose(&page, "list-game", "chess").await;
    choose(&page, "list-status", "finished").await;
    page.wait_for("document.querySelectorAll('.games.mine li').length === 2")
        .await;
    page.wait_for("document.querySelectorAll('.games.finished li').length === 2")
        .await;
    assert_eq!(
        page.eval("document.querySelector('.games.ongoing') === null")
            .await,
        json!(true)
    );
    // In progress: the stranger's game is listed among all games, not among ours.
    choose(&page, "list-status", "playing").await;
    page.wait_for("document.querySelectorAll('.games.ongoing li').length === 1")
        .await;
    page.wait_for("!document.querySelector('.games.mine .empty').hidden")
        .await;
    assert_eq!(entries(&page, "mine").await, Vec::<String>::new());

    // The results in Chinese, and the filters kept across the language change.
    choose(&page, "list-status", "finished").await;
    page.wait_for("document.querySelectorAll('.games.mine li').length === 2")
        .await;
    page.eval("document.getElementById('language').value = 'zh-CN'; document.getElementById('language').dispatchEvent(new Event('change')); true")
        .await;
    page.wait_for("document.querySelector('.games.mine h2').textContent === '我的对局'")
        .await;
    page.wait_for("document.querySelectorAll('.games.mine li').length === 2")
        .await;
    let chinese = entries(&page, "mine").await;
    assert!(
        chinese
            .iter()
            .any(|e| e.ends_with("½–½ 和棋 · 双方同意和棋")),
        "{chinese:#?}"
    );
    assert!(chinese.iter().any(|e| e.contains("胜 · ")), "{chinese:#?}");
    h.assert_no_console_errors(&[]);
}

/// axe-core's script, installed from npm under the repository's `target/` by
/// `scripts/test`; `None` (skip) when it is missing outside CI.
fn axe_source() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/axe/node_modules/axe-core/axe.min.js");
    match std::fs::read_to_string(&path) {
        Ok(source) => Some(source),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "axe-core is not installed at {} ({e}): scripts/test installs it",
                path.display()
            );
            eprintln!(
                "skipped: axe-core is not installed (npm install --prefix target/axe axe-core, as scripts/test does)"
            );
            None
        }
    }
}

/// Adds the violations on the page as it stands to `found`, each line naming `name`.
async fn check(page: &Page<'_>, axe: &str, name: &str, found: &mut Vec<String>) {
    page.eval(&format!("{axe}; true")).await;
    let violations = page
        .eval(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => \
             `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map(n => n.target.join(' ')).join(', ')}`))",
        )
        .await;
    let violations: Vec<String> = serde_json::from_value(violations).unwrap();
    found.extend(violations.into_iter().map(|v| format!("{name}: {v}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_finds_no_violation_on_any_page() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let Some(axe) = axe_source() else {
        return;
    };
    let mut games = Vec::new();
    for game in ["chess", "xiangqi", "draughts", "chess3d"] {
        games.push((game, create_game(&h, json!({"game": game})).await));
    }
    // A finished game, so that the lobby shows a result and the game page its banner.
    let (_, over) = &games[0];
    act(&h, over, "white", "moves", json!({"move": "f2f3"})).await;
    act(&h, over, "black", "moves", json!({"move": "e7e5"})).await;
    act(&h, over, "white", "moves", json!({"move": "g2g4"})).await;
    act(&h, over, "black", "moves", json!({"move": "d8h4"})).await;
    let mut found = Vec::new();
    // English on a desktop in the light scheme, Chinese on a phone (Ajedrez 3D's level
    // tabs) in the dark one.
    for (lang, (width, height), scheme) in
        [("en", (1280, 900), "light"), ("zh-CN", (375, 812), "dark")]
    {
        let page = h.browser.page(width, height).await;
        page.color_scheme(scheme).await;
        set_lang(&h, &page, lang).await;
        assert_eq!(
            page.eval("matchMedia('(prefers-color-scheme: dark)').matches")
                .await,
            json!(scheme == "dark")
        );
        let held: Vec<&Value> = games.iter().map(|(_, g)| g).collect();
        hold_seats(&page, &held).await;
        page.goto(&h.url("/")).await;
        page.wait_for("document.querySelectorAll('.games.mine li').length === 4")
            .await;
        check(&page, &axe, &format!("lobby ({lang})"), &mut found).await;
        for (game, created) in &games {
            open_hotseat(&h, &page, created).await;
            page.wait_for_el(".move-list").await;
            check(&page, &axe, &format!("{game} ({lang})"), &mut found).await;
        }
        page.goto(&h.url("/analysis")).await;
        page.wait_for_el(".analysis .board [data-spot]").await;
        check(&page, &axe, &format!("analysis ({lang})"), &mut found).await;
        for game in ["chess", "xiangqi", "draughts", "chess3d"] {
            page.goto(&h.url(&format!("/rules/{game}"))).await;
            page.wait_for_el(".rules-diagram svg").await;
            check(
                &page,
                &axe,
                &format!("rules of {game} ({lang})"),
                &mut found,
            )
            .await;
        }
        page.goto(&h.url("/players")).await;
        page.wait_for_el("#main h1").await;
        check(&page, &axe, &format!("players ({lang})"), &mut found).await;
        page.goto(&h.url("/reports")).await;
        page.wait_for_el("#main h1").await;
        check(&page, &axe, &format!("reports ({lang})"), &mut found).await;
    }
    assert!(
        found.is_empty(),
        "axe-core violations:\n{}",
        found.join("\n")
    );
    h.assert_no_console_errors(&[]);
}
