//! The web interface's files and the state fields it draws from, through `app()`.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{app_in, call, create, hotseat, play, state};
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

async fn get(
    app: &axum::Router,
    uri: &str,
    etag: Option<&str>,
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let mut request = Request::builder().uri(uri);
    if let Some(tag) = etag {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    (status, headers, body)
}

#[tokio::test]
async fn pages_files_and_the_api_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    for page in ["/", "/game/abc123", "/games"] {
        let (status, headers, body) = get(&app, page, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
        assert!(headers.contains_key(header::CONTENT_SECURITY_POLICY));
        assert!(String::from_utf8(body).unwrap().contains("/js/app.js"));
    }
    let (status, headers, body) = get(&app, "/js/app.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::CONTENT_TYPE],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert!(!body.is_empty());
    let tag = headers[header::ETAG].to_str().unwrap().to_owned();
    let (status, _, body) = get(&app, "/js/app.js", Some(&tag)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    let (_, headers, _) = get(&app, "/css/app.css", None).await;
    assert_eq!(headers[header::CONTENT_TYPE], "text/css; charset=utf-8");
    let (_, headers, _) = get(&app, "/favicon.svg", None).await;
    assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml");

    // Unknown files are 404 (plain), unknown API paths keep their JSON 404.
    let (status, _, _) = get(&app, "/js/nothing.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = call(&app, "GET", "/api/nothing", None, None).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::NOT_FOUND,
            json!({"error": "no such route", "code": "route_not_found", "params": {}})
        )
    );
    let (status, _) = call(&app, "POST", "/", None, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn the_state_draws_the_board_and_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "chess").await;
    let s = &game.body["state"];
    assert_eq!(s["board"]["pieces"].as_array().unwrap().len(), 32);
    assert_eq!(s["board"]["width"], 8);
    // Every spot's name, so that the page labels squares without knowing the game.
    assert_eq!(s["board"]["names"][0][3][4], "e4");
    assert_eq!(s["board"]["names"][0][7][0], "a8");
    assert_eq!(s["board"]["column_labels"][7], "h");
    assert_eq!(s["board"]["row_labels"][0], "1");
    assert_eq!(s["last_move"], json!(null));
    let e4 = s["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "e2e4")
        .unwrap();
    assert_eq!(e4["notation"], "e4");
    assert_eq!(e4["path"], json!([[0, 4, 1], [0, 4, 3]]));
    for (side, mv) in [
        ("white", "e4"),
        ("black", "f6"),
        ("white", "d4"),
        ("black", "g5"),
        ("white", "Qh5"),
    ] {
        let (status, body) = play(&app, &game.id, &game.token(side), mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
    let s = state(&app, &game.id).await;
    assert_eq!(s["last_move"]["path"], json!([[0, 3, 0], [0, 7, 4]]));
    assert_eq!(s["board"]["check"], json!([0, 4, 7]));
    assert_eq!(s["status"], "finished");
    assert_eq!(s["legal_moves"], json!([]));

    // Review: every ply from the start to now, nothing past it.
    let (status, start) = call(
        &app,
        "GET",
        &format!("/api/games/{}/positions/0", game.id),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(start["last_move"], json!(null));
    assert_eq!(start["board"]["pieces"].as_array().unwrap().len(), 32);
    let (_, two) = call(
        &app,
        "GET",
        &format!("/api/games/{}/positions/2", game.id),
        None,
        None,
    )
    .await;
    assert_eq!(two["last_move"]["notation"], "f6");
    assert_eq!(
        two["position"],
        "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    for bad in ["6", "x", "-1"] {
        let (status, body) = call(
            &app,
            "GET",
            &format!("/api/games/{}/positions/{bad}", game.id),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{bad}: {body}");
    }

    // Draughts: a capture's path lists every landing, and square numbers are given.
    let d = create(
        &app,
        json!({"game": "draughts", "variant": "english", "position": "B:W18,27:B14"}),
    )
    .await;
    let m = &d.body["state"]["legal_moves"][0];
    assert_eq!(m["path"].as_array().unwrap().len(), 3, "{m}");
    assert_eq!(m["captures"].as_array().unwrap().len(), 2);
    assert_eq!(
        d.body["state"]["board"]["numbers"]
            .as_array()
            .unwrap()
            .len(),
        32
    );
    let names = &d.body["state"]["board"]["names"][0];
    assert_eq!(
        (&names[0][0], &names[0][1], &names[7][1]),
        (&json!("29"), &json!("b1"), &json!("1"))
    );
}

#[tokio::test]
async fn xiangqi_moves_carry_chinese_notation() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "xiangqi").await;
    for (side, mv) in [("red", "h2e2"), ("black", "h9g7"), ("red", "C5.4")] {
        let (status, body) = play(&app, &game.id, &game.token(side), mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
    let s = state(&app, &game.id).await;
    let zh: Vec<&str> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation_zh"].as_str().unwrap())
        .collect();
    assert_eq!(zh, ["炮二平五", "马８进７", "炮五平四"]);
    // The other games have no Chinese notation.
    let chess = hotseat(&app, "chess").await;
    play(&app, &chess.id, &chess.token("white"), "e4").await;
    let s = state(&app, &chess.id).await;
    assert_eq!(s["moves"][0], json!({"move": "e2e4", "notation": "e4"}));
}

/// The reason ids of `tablero_core::Reason` as keys of one language's dictionary in
/// `web/js/i18n.js` (the text between `const <name> = {` and the next `};`).
fn reason_keys(source: &str, dictionary: &str) -> Vec<String> {
    dictionary_keys(source, dictionary, "'reason.")
}

/// The keys of one language's dictionary that start with `prefix` (after the quote),
/// without the prefix.
fn dictionary_keys(source: &str, dictionary: &str, prefix: &str) -> Vec<String> {
    let start = source
        .find(&format!("const {dictionary} = {{"))
        .unwrap_or_else(|| panic!("no dictionary {dictionary} in i18n.js"));
    let body = &source[start..];
    let body = &body[..body.find("\n};").unwrap()];
    body.lines()
        .filter_map(|line| {
            let key = line.trim().strip_prefix(prefix)?;
            Some(key[..key.find('\'')?].to_owned())
        })
        .collect()
}

#[test]
fn every_outcome_reason_is_translated() {
    let source = include_str!("../../../web/js/i18n.js");
    for dictionary in ["en", "es", "zh"] {
        let keys = reason_keys(source, dictionary);
        for reason in tablero_core::Reason::ALL {
            assert!(
                keys.iter().any(|k| k == reason.id()),
                "web/js/i18n.js: no '{dictionary}' text for the reason {:?}",
                reason.id()
            );
        }
    }
}

/// Every refusal code and API error code has a text in each language, and each text
/// uses only the parameters the English one does (so no English server text need ever
/// appear in a Spanish or Chinese page).
#[test]
fn every_error_code_is_translated() {
    let source = include_str!("../../../web/js/i18n.js");
    let codes = tablero_core::Refusal::CODES
        .iter()
        .chain(tablero_server::API_CODES.iter());
    let dictionaries: Vec<Vec<String>> = ["en", "es", "zh"]
        .iter()
        .map(|d| dictionary_keys(source, d, "'code."))
        .collect();
    for code in codes {
        for (dictionary, keys) in ["en", "es", "zh"].iter().zip(&dictionaries) {
            assert!(
                keys.iter().any(|k| k == code),
                "web/js/i18n.js: no '{dictionary}' text for the error code {code:?}"
            );
        }
        let english = placeholders(&code_text(source, "en", code));
        for dictionary in ["es", "zh"] {
            assert_eq!(
                placeholders(&code_text(source, dictionary, code)),
                english,
                "web/js/i18n.js: '{dictionary}' text of {code:?} uses other parameters"
            );
        }
    }
}

/// The text of `code.<code>` in one dictionary.
fn code_text(source: &str, dictionary: &str, code: &str) -> String {
    let start = source.find(&format!("const {dictionary} = {{")).unwrap();
    let body = &source[start..];
    let body = &body[..body.find("\n};").unwrap()];
    // The key, then (after spaces or a line break, as the formatter lays it out) one
    // string literal.
    let key = format!("'code.{code}':");
    let at = body
        .find(&key)
        .unwrap_or_else(|| panic!("no {dictionary} text for {code}"));
    let rest = body[at + key.len()..].trim_start();
    let quote = rest.chars().next().expect("a string after the key");
    let mut text = String::new();
    let mut chars = rest[quote.len_utf8()..].chars();
    loop {
        match chars.next() {
            Some('\\') => text.extend(chars.next()),
            Some(c) if c == quote => return text,
            Some(c) => text.push(c),
            None => panic!("unterminated {dictionary} text for {code}"),
        }
    }
}

/// The `{name}` placeholders of a text, sorted.
fn placeholders(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_owned()))
        .collect();
    names.sort();
    names
}
