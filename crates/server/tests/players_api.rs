//! Players and reports over HTTP: import (good and bad files), list, search,
//! standings with ratings, delete, and each report as DOT and SVG.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::*;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn import(app: &axum::Router, text: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        "/api/players/import",
        Some(ADMIN),
        Some(json!({ "text": text })),
    )
    .await
}

fn names(list: &Value) -> Vec<String> {
    list["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A GET whose answer is not JSON: status, content type and body text.
async fn text(app: &axum::Router, uri: &str) -> (StatusCode, String, String) {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        content_type,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

#[tokio::test]
async fn import_list_search_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_admin(&dir).await;
    let (status, body) = import(
        &app,
        "juanca77_10_4; carlosfp81_7_6; amaya92_12_1; jdark96_11_0;",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({"records": 4, "added": ["juanca77", "carlosfp81", "amaya92", "jdark96"], "updated": []})
    );
    let (_, list) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(
        names(&list),
        ["juanca77", "carlosfp81", "amaya92", "jdark96"]
    );
    let amaya = &list["players"][2];
    assert_eq!(amaya["number"], 3);
    assert_eq!(amaya["total"], json!({"won": 12, "lost": 1, "drawn": 0}));
    assert_eq!(amaya["imported"]["won"], 12);
    assert_eq!(amaya["stats"], json!({}));

    // A bad file: the record and the reason, and nothing changes.
    let (status, body) = import(&app, "amaya92_0_0; nuevo_1_1;\n bad name_1_2;").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "nothing imported: record 3 \"bad name_1_2\": name \"bad name\": ' ' is not allowed (letters, digits, '.' and '-' only)"
    );
    let (_, again) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(again, list);
    let (status, body) = import(&app, " ; ").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("no record"),
        "{body}"
    );

    // Existing names are updated, not duplicated.
    let (_, body) = import(&app, "amaya92_13_1; nuevo_0_0;").await;
    assert_eq!(body["added"], json!(["nuevo"]));
    assert_eq!(body["updated"], json!(["amaya92"]));
    let (_, list) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(list["players"].as_array().unwrap().len(), 5);
    assert_eq!(list["players"][2]["total"]["won"], 13);

    let (_, found) = call(&app, "GET", "/api/players?search=JDARK", None, None).await;
    assert_eq!(names(&found), ["jdark96"]);
    let (status, one) = call(&app, "GET", "/api/players/nuevo", None, None).await;
    assert_eq!(
        (status, one["name"].clone()),
        (StatusCode::OK, json!("nuevo"))
    );

    let (status, body) = call(&app, "DELETE", "/api/players/nuevo", Some(ADMIN), None).await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!({"deleted": "nuevo"}))
    );
    let (status, body) = call(&app, "DELETE", "/api/players/nuevo", Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "no player named \"nuevo\"");
    // Names that are also fixed paths can be read and deleted.
    import(&app, "import_1_0; standings_2_0;").await;
    let (status, one) = call(&app, "GET", "/api/players/import", None, None).await;
    assert_eq!(
        (status, one["total"]["won"].clone()),
        (StatusCode::OK, json!(1))
    );
    for name in ["import", "standings"] {
        let uri = format!("/api/players/{name}");
        let (status, body) = call(&app, "DELETE", &uri, Some(ADMIN), None).await;
        assert_eq!((status, body), (StatusCode::OK, json!({"deleted": name})));
    }
    let (status, _) = call(&app, "GET", "/api/players?sort=x", None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn finished_games_count_rate_and_keep_deleted_names() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_admin(&dir).await;
    let game = online(&app, "chess").await;
    let (white, black) = (game.token("white"), game.token("black"));
    for (token, mv) in [
        (&white, "f2f3"),
        (&black, "e5"),
        (&white, "g2g4"),
        (&black, "Qh4#"),
    ] {
        let (status, body) = play(&app, &game.id, token, mv).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, table) = call(&app, "GET", "/api/players/standings?game=chess", None, None).await;
    let rows = table["standings"].as_array().unwrap();
    assert_eq!(rows[0]["name"], "bo");
    assert_eq!(rows[0]["won"], 1);
    assert_eq!(rows[0]["rating"]["games"], 1);
    assert!(rows[0]["rating"]["rating"].as_f64().unwrap() > 1500.0);
    assert_eq!(rows[1]["name"], "ana");
    assert!(rows[1]["rating"]["rating"].as_f64().unwrap() < 1500.0);
    let (_, none) = call(
        &app,
        "GET",
        "/api/players/standings?game=xiangqi",
        None,
        None,
    )
    .await;
    assert_eq!(none["standings"], json!([]));
    let (status, _) = call(&app, "GET", "/api/players/standings?game=go", None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Deleting a player keeps their name in the finished game.
    let (status, _) = call(&app, "DELETE", "/api/players/ana", Some(ADMIN), None).await;
    assert_eq!(status, StatusCode::OK);
    let s = state(&app, &game.id).await;
    assert_eq!(s["players"]["white"]["name"], "ana");
    let (_, list) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(names(&list), ["bo"]);
}

#[tokio::test]
async fn reports_as_dot_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_admin(&dir).await;
    import(&app, "m_1_0; f_2_0; t_3_0; a_4_0; h_5_0; p_6_0; z_7_0;").await;
    let (status, content_type, dot) = text(&app, "/api/reports/players").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "text/vnd.graphviz; charset=utf-8");
    assert!(dot.starts_with("digraph \"players\""), "{dot}");
    assert!(
        dot.contains("height 3 (one node = 1), leaves 4, branch nodes 3"),
        "{dot}"
    );
    let (status, content_type, svg) = text(&app, "/api/reports/players?format=svg").await;
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "image/svg+xml")
    );
    assert!(svg.contains("<svg") && svg.contains("leaves 4"));
    assert_eq!(svg.matches("class=\"node\"").count(), 7);

    let (_, _, top) = text(&app, "/api/reports/top10").await;
    assert!(
        top.contains("\"top1\" [label=\"1. z\\nwon 7, lost 0\""),
        "{top}"
    );

    let game = hotseat(&app, "chess").await;
    play(&app, &game.id, &game.token("white"), "e4").await;
    let uri = format!("/api/reports/board?game_id={}&format=svg", game.id);
    let (status, _, svg) = text(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert!(
        svg.contains(">e4</text>") && !svg.contains(">e2</text>"),
        "{svg}"
    );
    let uri = format!("/api/reports/linear?game_id={}&order=column", game.id);
    let (_, _, dot) = text(&app, &uri).await;
    assert!(dot.contains("a8 a7 a2 a1 b8"), "{dot}");

    let (status, _, dot) = text(&app, "/api/reports/board?game=chess3d&level=2").await;
    assert_eq!(status, StatusCode::OK);
    assert!(dot.contains("chess3d standard, level 2"), "{dot}");
    let (status, _, dot) = text(
        &app,
        "/api/reports/linear?game=xiangqi&moves=h2e2%20h9g7&order=row",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{dot}");
    assert!(dot.contains("red cannon\\ne2"), "{dot}");

    for (uri, status, message) in [
        (
            "/api/reports/chart",
            StatusCode::NOT_FOUND,
            "unknown report \"chart\" (reports: board, linear, players, top10)",
        ),
        (
            "/api/reports/board",
            StatusCode::BAD_REQUEST,
            "give game_id (a stored game) or game (with variant, position, moves)",
        ),
        (
            "/api/reports/board?game=chess&level=1",
            StatusCode::BAD_REQUEST,
            "level 1: chess has one level (0 to 0)",
        ),
        (
            "/api/reports/board?game_id=nope",
            StatusCode::NOT_FOUND,
            "no game with id \"nope\"",
        ),
        (
            "/api/reports/board?game=chess&format=png",
            StatusCode::BAD_REQUEST,
            "format \"png\": expected dot or svg",
        ),
        (
            "/api/reports/linear?game=chess&order=spiral",
            StatusCode::BAD_REQUEST,
            "unknown order \"spiral\" (orders: row, column)",
        ),
        (
            "/api/reports/players?game=chess",
            StatusCode::BAD_REQUEST,
            "game is for the board and linear reports",
        ),
        (
            "/api/reports/board?game=chess&moves=e2e5",
            StatusCode::BAD_REQUEST,
            "",
        ),
    ] {
        let (got, body) = call(&app, "GET", uri, None, None).await;
        assert_eq!(got, status, "{uri}: {body}");
        if !message.is_empty() {
            assert_eq!(body["error"], message, "{uri}");
        }
    }
}
