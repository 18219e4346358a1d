//! The rules pages and the layouts in a real browser (see `browser.rs` for the set-up):
//! every page fits screens from 360 px phones to 2560 px monitors without sideways
//! scrolling, Ajedrez 3D shows its three levels together on desktops and one level
//! with a switcher on phones, and the rules pages' diagrams agree with the server's
//! legal moves.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

#[path = "browser/cdp.rs"]
mod cdp;
#[path = "browser/harness.rs"]
mod harness;

use cdp::Page;
use harness::*;
use serde_json::{Value, json};

/// The sizes every page is checked at: phones, a laptop, desktops.
const SCREENS: [(u32, u32); 5] = [
    (360, 740),
    (375, 812),
    (1400, 900),
    (1920, 1080),
    (2560, 1440),
];

const PAGE_FITS: &str = "document.documentElement.scrollWidth <= window.innerWidth";

/// Whether every board of the page lies inside the window.
const BOARDS_INSIDE: &str = "[...document.querySelectorAll('.board')].every(b => { \
    const r = b.getBoundingClientRect(); \
    return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; })";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_fits_every_screen() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let mut games = Vec::new();
    for game in ["chess", "xiangqi", "draughts", "chess3d"] {
        games.push((game, create_game(&h, json!({"game": game})).await));
    }
    for (width, height) in SCREENS {
        let shot = matches!(width, 375 | 1400 | 1920);
        let page = h.browser.page(width, height).await;
        page.goto(&h.url("/")).await;
        page.wait_for_el("#create").await;
        assert_eq!(
            page.eval(PAGE_FITS).await,
            json!(true),
            "lobby at {width} px"
        );
        if shot {
            page.screenshot(&screenshot_path(&format!("lobby-{width}")))
                .await;
        }
        for game in ["chess", "xiangqi", "draughts", "chess3d"] {
            page.goto(&h.url(&format!("/rules/{game}"))).await;
            page.wait_for_el(".rules-diagram svg").await;
            assert_eq!(
                page.eval(PAGE_FITS).await,
                json!(true),
                "rules of {game} at {width} px"
            );
            if shot && game == "chess3d" {
                page.screenshot(&screenshot_path(&format!("rules-{game}-{width}")))
                    .await;
            }
        }
        for (game, created) in &games {
            open_hotseat(&h, &page, created).await;
            assert_eq!(
                page.eval(PAGE_FITS).await,
                json!(true),
                "{game} at {width}×{height}"
            );
            if shot {
                page.screenshot(&screenshot_path(&format!("{game}-{width}")))
                    .await;
            }
        }
        // Ajedrez 3D: on desktops the three levels and the whole page are inside the
        // window; on phones one level is shown, with its tabs.
        let shown = page
            .eval("[...document.querySelectorAll('.board-chess3d')].filter(b => b.getBoundingClientRect().width > 0).length")
            .await;
        if width >= 1024 {
            assert_eq!(shown, json!(3), "{width}×{height}");
            assert_eq!(
                page.eval(BOARDS_INSIDE).await,
                json!(true),
                "Ajedrez 3D's boards at {width}×{height}"
            );
            assert_eq!(
                page.eval("document.documentElement.scrollHeight <= innerHeight")
                    .await,
                json!(true),
                "Ajedrez 3D's page at {width}×{height}"
            );
        } else {
            assert_eq!(shown, json!(1), "{width}×{height}");
            assert_eq!(
                page.eval("document.querySelectorAll('.level-tabs [role=tab]').length")
                    .await,
                json!(3)
            );
        }
    }
    h.assert_no_console_errors(&[]);
}

/// The rectangle of the first element matching `selector`, in page coordinates (typing
/// a move scrolls the move box into view on phones).
async fn rect(page: &Page<'_>, selector: &str) -> Value {
    page.eval(&format!(
        "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); \
         return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()"
    ))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_over_banner_does_not_move_the_board() {
    let Some(h) = Harness::start().await else {
        return;
    };
    for (width, height) in [(375, 812), (1400, 900), (1920, 1080)] {
        let page = h.browser.page(width, height).await;
        // Scholar's mate, one move before the end.
        let created = create_game(
            &h,
            json!({"game": "chess", "position": "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"}),
        )
        .await;
        open_hotseat(&h, &page, &created).await;
        let before = rect(&page, ".board").await;
        type_moves(&page, &["Qxf7"]).await;
        page.wait_for("!document.querySelector('.banner').hidden")
            .await;
        assert_eq!(rect(&page, ".board").await, before, "chess at {width} px");
        if width == 1400 {
            page.screenshot(&screenshot_path("chess-over-1400")).await;
        }
        // The banner can be put away.
        page.click(".banner .close").await;
        page.wait_for("document.querySelector('.banner').hidden")
            .await;

        // The choice between two capture paths does not move the board either.
        let created = create_game(
            &h,
            json!({"game": "draughts", "position": "B:W6,7,14,15:B2"}),
        )
        .await;
        open_hotseat(&h, &page, &created).await;
        let board = rect(&page, ".board").await;
        page.click_spot("0,3,7").await; // square 2
        page.wait_for_el(".board .target").await;
        page.click_spot("0,3,3").await; // square 18
        page.wait_for_el(".path-option").await;
        assert_eq!(rect(&page, ".board").await, board, "draughts at {width} px");
        if width == 375 {
            page.screenshot(&screenshot_path("draughts-path-choice-375"))
                .await;
        }

        // Ajedrez 3D: White's dama takes Black's.
        let created = create_game(
            &h,
            json!({"game": "chess3d", "position": "8/8/8/8/8/8/8/8|3dr3/8/3D4/8/8/8/8/4R3|8/8/8/8/8/8/8/8 w 0 1 0000000000000000"}),
        )
        .await;
        open_hotseat(&h, &page, &created).await;
        if width < 821 {
            page.click(".level-tabs [data-level=\"1\"]").await;
        }
        let before = rect(&page, ".board-chess3d[data-level=\"1\"]").await;
        type_moves(&page, &["1F4-1H4"]).await;
        page.wait_for("!document.querySelector('.banner').hidden")
            .await;
        assert_eq!(
            rect(&page, ".board-chess3d[data-level=\"1\"]").await,
            before,
            "Ajedrez 3D at {width} px"
        );
        if width == 1920 {
            assert_eq!(page.eval(BOARDS_INSIDE).await, json!(true));
            page.screenshot(&screenshot_path("chess3d-over-1920")).await;
        }
    }
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_diagrams_agree_with_the_server() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/rules/chess").await;
    page.wait_for_el(".rules-diagram svg").await;
    let mut checked = 0;
    let cases = [
        ("chess", "standard"),
        ("xiangqi", "standard"),
        ("chess3d", "standard"),
        ("draughts", "international"),
        ("draughts", "english"),
        ("draughts", "brazilian"),
        ("draughts", "russian"),
        ("draughts", "spanish"),
        ("draughts", "italian"),
    ];
    for (game, variant) in cases {
        // Draughts squares are named by the server's numbers of the rule set's board.
        let numbers = if game == "draughts" {
            let created = create_game(&h, json!({"game": game, "variant": variant})).await;
            created["state"]["board"]["numbers"].clone()
        } else {
            json!([])
        };
        let diagrams = page
            .eval(&format!(
                "import('/js/rules/diagrams.js').then(m => {{ const numbers = {numbers}; \
                 return m.diagramsOf({game:?}).map(id => {{ const d = m.diagram(id, {variant:?}); \
                 const numberOf = (s) => numbers.findIndex(n => n.join() === s.join()) + 1; \
                 return {{ id, from: d.from, position: m.positionText(d, numberOf), \
                 targets: m.targetsOf(d).map(s => s.join()).sort() }}; }}); }})"
            ))
            .await;
        for d in diagrams.as_array().unwrap() {
            let created = create_game(
                &h,
                json!({"game": game, "variant": variant, "position": d["position"]}),
            )
            .await;
            let mut legal: Vec<String> = created["state"]["legal_moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["path"][0] == d["from"])
                .map(|m| {
                    let path = m["path"].as_array().unwrap();
                    let end = path.last().unwrap().as_array().unwrap();
                    end.iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect();
            legal.sort();
            legal.dedup();
            let drawn: Vec<String> = serde_json::from_value(d["targets"].clone()).unwrap();
            assert!(!drawn.is_empty(), "{variant} {d}");
            assert_eq!(drawn, legal, "{variant} {}: {}", d["id"], d["position"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 6 + 7 + 6 + 3 * 6);
    // The page draws the dots it computed: the chess king has eight.
    assert_eq!(
        page.eval("document.querySelectorAll('#diagram-chess-k .target').length")
            .await,
        json!(8)
    );
    h.assert_no_console_errors(&[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rules_are_reached_from_the_lobby_and_the_game_in_three_languages() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let page = h.open("/").await;
    page.click("[for=\"game-draughts\"]").await;
    page.wait_for_el("#lobby-rules").await;
    page.click("#lobby-rules").await;
    page.wait_for(
        "location.pathname === '/rules/draughts' && !!document.querySelector('.rules-diagram')",
    )
    .await;
    assert_eq!(
        page.eval("document.getElementById('rules-variant').value")
            .await,
        json!("english")
    );
    // English kings move one square; International kings fly.
    assert_eq!(
        page.eval("document.querySelectorAll('#diagram-draughts-k .target').length")
            .await,
        json!(4)
    );
    page.eval("(() => { const s = document.getElementById('rules-variant'); s.value = 'international'; s.dispatchEvent(new Event('change')); return true; })()")
        .await;
    page.wait_for("location.search === '?variant=international' && document.querySelectorAll('#diagram-draughts-k .target').length === 15")
        .await;

    // From a game page, in Spanish then Chinese.
    let created = create_game(&h, json!({"game": "chess3d"})).await;
    open_hotseat(&h, &page, &created).await;
    // The dama is marked as the royal piece; the alfil shows its four straight arrows.
    assert_eq!(
        page.eval("document.querySelectorAll('.board .piece.chess3d.royal').length")
            .await,
        json!(2)
    );
    assert_eq!(
        page.eval("document.querySelector('[data-piece=\"0,2,0\"] .move-arrow').parentNode.querySelectorAll('.move-arrow').length")
            .await,
        json!(4)
    );
    // The chess pictures are a setting, remembered.
    page.eval("(() => { const s = document.getElementById('opt-pieces3d'); s.value = 'chess'; s.dispatchEvent(new Event('change')); return true; })()")
        .await;
    page.wait_for("document.querySelectorAll('.board .piece.chess3d').length === 0 && document.querySelectorAll('.board .piece.chess').length > 0")
        .await;
    assert_eq!(
        page.eval("localStorage.getItem('tablero.chess3dPieces')")
            .await,
        json!("chess")
    );
    let choose = |code: &str| {
        format!(
            "(() => {{ const s = document.getElementById('language'); s.value = '{code}'; s.dispatchEvent(new Event('change')); return true; }})()"
        )
    };
    page.eval(&choose("es")).await;
    page.wait_for("document.getElementById('game-rules')?.textContent === 'Reglas: Ajedrez 3D'")
        .await;
    page.click("#game-rules").await;
    page.wait_for("location.pathname === '/rules/chess3d' && document.querySelector('.rules h1')?.textContent === 'Reglas · Ajedrez 3D'")
        .await;
    let text = page
        .eval("document.querySelector('.rules').textContent")
        .await;
    assert!(
        text.as_str()
            .unwrap()
            .contains("Capturar la dama contraria gana"),
        "{text}"
    );
    page.eval(&choose("zh-CN")).await;
    page.wait_for("document.querySelector('.rules h1')?.textContent === '规则 · 三维象棋'")
        .await;
    assert_eq!(
        page.eval("document.querySelectorAll('.rules-diagram').length")
            .await,
        json!(6)
    );
    page.goto(&h.url("/rules/xiangqi")).await;
    page.wait_for("document.querySelector('.rules').textContent.includes('长将')")
        .await;
    h.assert_no_console_errors(&[]);
}
