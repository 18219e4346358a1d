//! Playing comforts on the game page, in a real browser: the material count, premoves,
//! touch drags, the player's own circles and arrows, castling by putting the king on
//! its rook, word of a declined offer, no draw offers to oneself, a sound per event,
//! and the links to the analysis board and to this device's seats.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use cdp::Page;
use harness::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A seat's request, as the opponent on another device makes it.
async fn as_seat(h: &Harness, path: String, body: Value, token: &str) -> Value {
    let (addr, token) = (h.addr, token.to_owned());
    tokio::task::spawn_blocking(move || post_json_as(addr, &path, &body, &token))
        .await
        .unwrap()
}

/// An online game whose first seat this page holds; answers the game and the other
/// seat's token.
async fn online(h: &Harness, page: &Page<'_>, body: Value) -> (String, String) {
    let created = create_game(h, body).await;
    // Only the creator's seat is in `seats`: the page holds one side.
    open_hotseat(h, page, &created).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let other = created["invite"]["token"].as_str().unwrap().to_owned();
    (id, other)
}

/// An online chess game held as White on `page`, after 1. e4 (clicked) e5 (Black over
/// the API): its id and Black's token.
async fn online_after_e4_e5(h: &Harness, page: &Page<'_>) -> (String, String) {
    let (id, black) = online(h, page, json!({"game": "chess", "mode": "online"})).await;
    click_move(page, "0,4,1", "0,4,3").await;
    as_seat(
        h,
        format!("/api/games/{id}/moves"),
        json!({"move": "e7e5"}),
        &black,
    )
    .await;
    wait_moves(page, 2).await;
    (id, black)
}

async fn material(page: &Page<'_>) -> Value {
    page.eval(
        "[...document.querySelectorAll('.player .material')].map(m => [m.dataset.side, m.textContent])",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn material_lead_beside_the_captured_pieces() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    assert_eq!(material(&page).await, json!([]));
    type_moves(&page, &["e4", "d5", "exd5"]).await;
    page.wait_for("document.querySelectorAll('.player .material').length === 1")
        .await;
    assert_eq!(material(&page).await, json!([["white", "+1"]]));
    // Reviewing the start, nobody is ahead.
    page.click("[data-ply=\"2\"]").await;
    page.wait_for("document.querySelectorAll('.player .material').length === 0")
        .await;

    // A queen and a knight against a rook, by piece values: 9 + 3 - 5.
    let chess = create_game(
        &h,
        json!({"game": "chess", "position": "4k3/8/8/8/8/8/8/QN2K2r w - - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &chess).await;
    assert_eq!(material(&page).await, json!([["white", "+7"]]));

    // Xiangqi: red lacks a chariot (9) and black a horse (4).
    let xiangqi = create_game(
        &h,
        json!({"game": "xiangqi",
               "position": "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &xiangqi).await;
    assert_eq!(material(&page).await, json!([["black", "+5"]]));

    // Draughts counts pieces: a king counts as one, like a man.
    let draughts = create_game(
        &h,
        json!({"game": "draughts", "variant": "international", "position": "W:W31,32,K33:B1,2"}),
    )
    .await;
    open_hotseat(&h, &page, &draughts).await;
    assert_eq!(material(&page).await, json!([["white", "+1"]]));

    // Ajedrez 3D: a start position without one white pawn.
    let chess3d = create_game(&h, json!({"game": "chess3d"})).await;
    let start = chess3d["state"]["position"].as_str().unwrap();
    let without_pawn = start.replacen('P', "1", 1);
    let fewer = create_game(&h, json!({"game": "chess3d", "position": without_pawn})).await;
    assert!(fewer["state"].is_object(), "{fewer}");
    open_hotseat(&h, &page, &fewer).await;
    assert_eq!(material(&page).await, json!([["black", "+1"]]));
    h.assert_no_console_errors(&[]);
}

async fn premove_marks(page: &Page<'_>) -> Value {
    page.eval("document.querySelectorAll('.mark.premove').length")
        .await
}

/// Gives the page time to do what it should not (send a move), then checks it did not.
async fn still_moves(page: &Page<'_>, n: usize) {
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(move_count(page).await, n);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves_in_an_online_game() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let (id, black) = online(&h, &page, json!({"game": "chess", "mode": "online"})).await;
    let moves = format!("/api/games/{id}/moves");
    click_move(&page, "0,4,1", "0,4,3").await; // e4

    // On Black's turn White picks d2-d4, marked on both squares, played once Black moved.
    page.click_spot("0,3,1").await;
    page.click_spot("0,3,3").await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 2")
        .await;
    page.screenshot(&screenshot_path("premove")).await;
    as_seat(&h, moves.clone(), json!({"move": "e7e5"}), &black).await;
    wait_moves(&page, 3).await;
    assert_eq!(notations(&page).await, ["e4", "e5", "d4"]);
    assert_eq!(premove_marks(&page).await, json!(0));

    // dxe5 ahead, by dragging; Black takes the d4 pawn first: the premove goes, unsaid.
    page.drag("[data-spot=\"0,3,3\"]", "[data-spot=\"0,4,4\"]")
        .await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 2")
        .await;
    as_seat(&h, moves.clone(), json!({"move": "e5d4"}), &black).await;
    wait_moves(&page, 4).await;
    still_moves(&page, 4).await;
    assert_eq!(premove_marks(&page).await, json!(0));
    assert_eq!(
        page.eval("document.querySelector('.message').textContent")
            .await,
        json!("")
    );

    // Qxd4, then Qa4 ahead, taken back with Escape: Black's move is not answered.
    click_move(&page, "0,3,0", "0,3,3").await;
    page.click_spot("0,3,3").await;
    page.click_spot("0,0,3").await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 2")
        .await;
    page.press_key("Escape").await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 0")
        .await;
    as_seat(&h, moves.clone(), json!({"move": "b8c6"}), &black).await;
    wait_moves(&page, 6).await;
    still_moves(&page, 6).await;

    // A click on a square takes a premove back too; a piece picked on their turn stays
    // picked when the turn comes, with its legal moves.
    click_move(&page, "0,3,3", "0,0,3").await; // Qa4
    page.click_spot("0,6,0").await;
    page.click_spot("0,5,2").await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 2")
        .await;
    page.click_spot("0,4,4").await;
    page.wait_for("document.querySelectorAll('.mark.premove').length === 0")
        .await;
    page.click_spot("0,6,0").await;
    as_seat(&h, moves.clone(), json!({"move": "g8f6"}), &black).await;
    wait_moves(&page, 8).await;
    // Ne2, Nf3, Nh3.
    page.wait_for("document.querySelectorAll('.board .target').length === 3")
        .await;
    still_moves(&page, 8).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pieces_are_dragged_by_touch() {
    let Some(h) = Harness::start().await else {
        return;
    };
    // A phone.
    let page = h.browser.page(390, 844).await;
    page.emulate_touch().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    page.eval("window.kinds = []; document.addEventListener('pointerdown', (e) => window.kinds.push(e.pointerType), true); true").await;
    page.touch_drag(
        "[data-spot=\"0,4,1\"]",
        "[data-spot=\"0,4,3\"]",
        Duration::ZERO,
    )
    .await;
    wait_moves(&page, 1).await;
    // A finger held still on the piece before it moves (a long press) drags as well.
    page.touch_drag(
        "[data-spot=\"0,6,7\"]",
        "[data-spot=\"0,5,5\"]",
        Duration::from_millis(1500),
    )
    .await;
    wait_moves(&page, 2).await;
    assert_eq!(notations(&page).await, ["e4", "Nf6"]);
    assert_eq!(page.eval("window.kinds").await, json!(["touch", "touch"]));

    // While a finger holds a piece, the piece is drawn above it, larger, in sight (a
    // pawn beside the one held shows its size at rest).
    let from = page.centre("[data-spot=\"0,3,1\"]").await;
    page.touch("touchStart", Some(from)).await;
    // Within its square: let go there, it stays.
    let finger = (from.0, from.1 - 10.0);
    page.touch("touchMove", Some(finger)).await;
    let piece = page
        .wait_for("(() => { const p = document.querySelector('.pieces .dragging'); if (!p) return null; const r = p.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width, document.querySelector('[data-spot=\"0,3,1\"]').getBoundingClientRect().width, document.querySelector('[data-piece=\"0,2,1\"]').getBoundingClientRect().width]; })()")
        .await;
    let (x, y) = (piece[0].as_f64().unwrap(), piece[1].as_f64().unwrap());
    let (width, square) = (piece[2].as_f64().unwrap(), piece[3].as_f64().unwrap());
    let pawn_at_rest = piece[4].as_f64().unwrap();
    assert!((x - finger.0).abs() < 2.0, "{piece} {finger:?}");
    assert!(y < finger.1 - square / 2.0, "{piece} {finger:?}");
    assert!(width > pawn_at_rest * 1.4, "{piece}");
    page.touch("touchEnd", None).await;
    still_moves(&page, 2).await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn right_clicks_draw_circles_and_arrows() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    page.eval("window.menus = []; window.addEventListener('contextmenu', (e) => window.menus.push(e.defaultPrevented)); true").await;
    let count = |what: &str| format!("document.querySelectorAll('.annotation.{what}').length");

    page.right_drag("[data-spot=\"0,4,3\"]", "[data-spot=\"0,4,3\"]")
        .await;
    page.wait_for(&format!("{} === 1", count("circle"))).await;
    page.right_drag("[data-spot=\"0,6,0\"]", "[data-spot=\"0,5,2\"]")
        .await;
    page.wait_for(&format!("{} === 1", count("arrow"))).await;
    assert_eq!(page.eval(&count("arrow-head")).await, json!(1));
    page.screenshot(&screenshot_path("annotations")).await;
    // Nothing was chosen nor played, and no menu opened over the board.
    assert_eq!(move_count(&page).await, 0);
    assert_eq!(
        page.eval("document.querySelectorAll('.board .target, .mark.selected').length")
            .await,
        json!(0)
    );
    let menus = page.eval("window.menus").await;
    assert!(
        menus
            .as_array()
            .is_some_and(|m| m.iter().all(|p| p == true)),
        "{menus}"
    );
    // The same right-click again takes the circle away.
    page.right_drag("[data-spot=\"0,4,3\"]", "[data-spot=\"0,4,3\"]")
        .await;
    page.wait_for(&format!("{} === 0", count("circle"))).await;
    assert_eq!(page.eval(&count("arrow")).await, json!(1));
    // A left click anywhere clears the rest, and still selects.
    page.click_spot("0,4,1").await;
    page.wait_for(&format!("{} === 0", count("arrow"))).await;
    page.wait_for("document.querySelectorAll('.board .target').length === 2")
        .await;
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_king_put_on_its_rook_castles() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(
        &h,
        json!({"game": "chess", "position": "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &created).await;
    // The king's targets show the rook it may castle with.
    page.click_spot("0,4,0").await;
    page.wait_for("!!document.querySelector('[data-spot=\"0,7,0\"][aria-label*=\"legal move\"]')")
        .await;
    page.click_spot("0,7,0").await;
    wait_moves(&page, 1).await;
    // Black drags the king onto the queen's rook.
    page.drag("[data-spot=\"0,4,7\"]", "[data-spot=\"0,0,7\"]")
        .await;
    wait_moves(&page, 2).await;
    assert_eq!(notations(&page).await, ["O-O", "O-O-O"]);
    let kings = page
        .eval("['0,6,0', '0,2,7'].map(s => !!document.querySelector(`[data-piece=\"${s}\"]`))")
        .await;
    assert_eq!(kings, json!([true, true]));

    // Chess960 writes castling king-to-rook already: the same gesture.
    let chess960 = create_game(
        &h,
        json!({"game": "chess", "variant": "chess960",
               "position": "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"}),
    )
    .await;
    open_hotseat(&h, &page, &chess960).await;
    click_move(&page, "0,4,0", "0,6,0").await;
    assert_eq!(notations(&page).await, ["O-O"]);
    h.assert_no_console_errors(&[]);
}

async fn offers_text(page: &Page<'_>) -> String {
    page.eval("document.querySelector('.offers').textContent")
        .await
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_takeback_or_draw_is_told() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let (id, black) = online_after_e4_e5(&h, &page).await;

    click_button(&page, ".actions", "Take back").await;
    page.wait_for("document.querySelector('.offers').textContent.includes('Takeback requested')")
        .await;
    as_seat(
        &h,
        format!("/api/games/{id}/takeback/decline"),
        json!({}),
        &black,
    )
    .await;
    page.wait_for("document.querySelector('.offers').textContent.includes('Your takeback request was declined')")
        .await;
    assert_eq!(move_count(&page).await, 2);

    click_button(&page, ".actions", "Offer draw").await;
    page.wait_for("document.querySelector('.offers').textContent.includes('Draw offered')")
        .await;
    as_seat(
        &h,
        format!("/api/games/{id}/draw/decline"),
        json!({}),
        &black,
    )
    .await;
    page.wait_for(
        "document.querySelector('.offers').textContent.includes('Your draw offer was declined')",
    )
    .await;
    // In the page's language.
    page.eval("(() => { const s = document.getElementById('language'); s.value = 'es'; s.dispatchEvent(new Event('change')); return true; })()").await;
    page.wait_for("document.querySelector('.offers').textContent.includes('Han rechazado tu oferta de tablas')")
        .await;

    // A request that was accepted is no refusal; nor is one's own move.
    page.eval("(() => { const s = document.getElementById('language'); s.value = 'en'; s.dispatchEvent(new Event('change')); return true; })()").await;
    click_move(&page, "0,6,0", "0,5,2").await;
    // The move list grows before the server's answer redraws the offers: wait for it.
    page.wait_for("!document.querySelector('.offers').textContent.includes('declined')")
        .await;
    click_button(&page, ".actions", "Take back").await;
    // Black answers the request once the server has it.
    page.wait_for("document.querySelector('.offers').textContent.includes('Takeback requested')")
        .await;
    as_seat(
        &h,
        format!("/api/games/{id}/takeback/accept"),
        json!({}),
        &black,
    )
    .await;
    wait_moves(&page, 2).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!offers_text(&page).await.contains("declined"));
    h.assert_no_console_errors(&[]);
}

async fn action_labels(page: &Page<'_>) -> Vec<String> {
    let labels = page
        .eval(
            "[...document.querySelectorAll('.actions button, .actions a')].map(b => b.textContent)",
        )
        .await;
    serde_json::from_value(labels).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_draw_offers_in_a_hotseat_game() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    type_moves(
        &page,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
    )
    .await;
    page.wait_for("[...document.querySelectorAll('.actions button')].some(b => b.textContent === 'Claim draw')")
        .await;
    let labels = action_labels(&page).await;
    assert!(labels.iter().any(|l| l == "Resign"), "{labels:?}");
    assert!(labels.iter().any(|l| l == "Take back"), "{labels:?}");
    assert!(!labels.iter().any(|l| l == "Offer draw"), "{labels:?}");
    h.assert_no_console_errors(&[]);
}

async fn sounds(page: &Page<'_>) -> Vec<String> {
    serde_json::from_value(page.eval("window.tableroSounds").await).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_event_has_its_sound() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let created = create_game(&h, json!({"game": "chess"})).await;
    open_hotseat(&h, &page, &created).await;
    page.eval("localStorage.setItem('tablero.sound', 'on'); window.tableroSounds = []; true")
        .await;
    type_moves(&page, &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qe5+"]).await;
    page.wait_for("window.tableroSounds.length >= 6").await;
    assert_eq!(
        sounds(&page).await,
        ["move", "move", "capture", "capture", "move", "check"]
    );
    let id = created["id"].as_str().unwrap();
    let white = created["seats"]["white"].as_str().unwrap();
    as_seat(&h, format!("/api/games/{id}/resign"), json!({}), white).await;
    page.wait_for("window.tableroSounds.length >= 7").await;
    assert_eq!(sounds(&page).await[6], "end");

    // The opponent's draw offer and takeback request in an online game.
    let (id, black) = online(&h, &page, json!({"game": "chess", "mode": "online"})).await;
    page.eval("window.tableroSounds = []; true").await;
    click_move(&page, "0,4,1", "0,4,3").await;
    as_seat(&h, format!("/api/games/{id}/draw/offer"), json!({}), &black).await;
    page.wait_for("window.tableroSounds.length >= 2").await;
    as_seat(
        &h,
        format!("/api/games/{id}/moves"),
        json!({"move": "e7e5"}),
        &black,
    )
    .await;
    as_seat(&h, format!("/api/games/{id}/takeback"), json!({}), &black).await;
    page.wait_for("window.tableroSounds.length >= 4").await;
    assert_eq!(sounds(&page).await, ["move", "offer", "move", "offer"]);

    // Sound off: neither our move nor theirs plays.
    page.eval("localStorage.setItem('tablero.sound', 'off'); true")
        .await;
    click_move(&page, "0,3,1", "0,3,3").await;
    as_seat(
        &h,
        format!("/api/games/{id}/moves"),
        json!({"move": "e5d4"}),
        &black,
    )
    .await;
    wait_moves(&page, 4).await;
    still_moves(&page, 4).await;
    assert_eq!(sounds(&page).await.len(), 4);
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_to_the_analysis_board_and_to_this_devices_seat() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.page().await;
    let (id, black) = online_after_e4_e5(&h, &page).await;

    // A player of a game in progress: no analysis, a private link to the seat.
    assert_eq!(
        page.eval("!!document.getElementById('game-analyse')").await,
        json!(false)
    );
    let links = page
        .eval("[...document.querySelectorAll('.resume-link')].map(i => [i.dataset.side, i.value])")
        .await;
    let links = links.as_array().unwrap();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0][0], "white");
    let link = links[0][1].as_str().unwrap();
    assert!(
        link.starts_with(&h.url(&format!("/game/{id}#seat="))) && link.ends_with("&side=white"),
        "{link}"
    );
    assert!(page.text().await.contains("Continue on another device"));
    page.click(".resume summary").await;
    page.wait_for("document.querySelector('.resume').textContent.includes('keep it to yourself')")
        .await;
    page.click(".resume-item button").await;
    page.screenshot(&screenshot_path("resume-link")).await;

    // Another device opens it and plays on as White.
    let phone = h.page().await;
    phone.goto(link).await;
    phone.wait_for_el(".board [data-spot]").await;
    phone
        .wait_for("document.querySelector('.status').textContent.includes('Your move')")
        .await;
    click_move(&phone, "0,6,0", "0,5,2").await;
    wait_moves(&page, 3).await;

    // A spectator of a game with the computer may analyse it while it goes on.
    let computer = create_game(
        &h,
        json!({"game": "chess", "players": {"black": {"computer": 1}}}),
    )
    .await;
    let watcher = h.page().await;
    let computer_id = computer["id"].as_str().unwrap();
    watcher.goto(&h.url(&format!("/game/{computer_id}"))).await;
    watcher.wait_for_el("#game-analyse").await;
    assert_eq!(
        watcher
            .eval("document.querySelectorAll('.resume-link').length")
            .await,
        json!(0)
    );

    // So may an onlooker of a game between people in progress (this browser holds none
    // of its seats).
    let people = create_game(
        &h,
        json!({"game": "chess", "players": {"white": {"name": "cy"}, "black": {"name": "di"}}}),
    )
    .await;
    let people_id = people["id"].as_str().unwrap();
    watcher.goto(&h.url(&format!("/game/{people_id}"))).await;
    watcher.wait_for_el("#game-analyse").await;

    // Once the game is over its players may analyse it, from the position shown.
    as_seat(&h, format!("/api/games/{id}/resign"), json!({}), &black).await;
    page.wait_for_el("#game-analyse").await;
    assert_eq!(
        page.eval("document.getElementById('game-analyse').getAttribute('href')")
            .await,
        json!(format!("/analysis?id={id}&ply=3"))
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.resume-link').length")
            .await,
        json!(0)
    );
    page.click("[data-ply=\"1\"]").await;
    page.wait_for(&format!(
        "document.getElementById('game-analyse').getAttribute('href') === '/analysis?id={id}&ply=1'"
    ))
    .await;
    page.click("#game-analyse").await;
    page.wait_for("location.pathname === '/analysis'").await;
    assert_eq!(
        page.eval("location.search").await,
        json!(format!("?id={id}&ply=1"))
    );
    h.assert_no_console_errors(&[]);
}
