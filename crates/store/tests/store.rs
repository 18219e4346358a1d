//! The store on a real SQLite file and on a real PostgreSQL database: games, moves,
//! takebacks, results and players, and what survives reopening the database.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use common::TestDb;

use tablero_core::Side;
use tablero_store::{
    ClockKind, ClockRecord, GameEnd, GameFilter, GameStatus, Mode, MoveRecord, NewGame, Seat,
    Store, StoreError, token_hash, token_matches,
};

fn person(name: &str) -> Seat {
    Seat {
        name: Some(name.to_owned()),
        level: None,
        token_hash: Some(token_hash(&format!("token-of-{name}"))),
    }
}

fn new_game(id: &str, seats: [Seat; 2]) -> NewGame {
    NewGame {
        id: id.to_owned(),
        game: "chess".to_owned(),
        variant: "standard".to_owned(),
        start_position: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned(),
        seed: None,
        mode: Mode::Hotseat,
        seats,
        clock: Some(ClockRecord {
            kind: ClockKind::Fischer,
            initial_ms: 60_000,
            increment_ms: 1_000,
        }),
        moves: Vec::new(),
        finished: None,
        tags: Vec::new(),
    }
}

on_both_backends!(
    games_moves_and_results_survive_reopening,
    imported_games_and_computer_seats,
    clocks_and_change_times_follow_the_last_move,
    of_two_moves_with_one_number_exactly_one_is_stored,
    standing_offers_are_kept_until_the_game_ends,
    only_games_never_begun_are_deleted_as_abandoned,
);

async fn only_games_never_begun_are_deleted_as_abandoned(db: TestDb) {
    let store = Store::open(&db.url).await.unwrap();
    for id in ["empty", "begun", "ended"] {
        store
            .create_game(&new_game(id, [person("ana"), person("bo")]))
            .await
            .unwrap();
    }
    store
        .append_move("begun", 0, &mv("e2e4", 60_000, 60_000))
        .await
        .unwrap();
    let end = GameEnd {
        winner: None,
        reason: "agreement".to_owned(),
        remaining_ms: [None, None],
    };
    store.finish_game("ended", &end).await.unwrap();
    // Not idle long enough: nothing goes.
    let none = store
        .delete_abandoned_games(std::time::Duration::from_secs(3600))
        .await
        .unwrap();
    assert!(none.is_empty(), "{none:?}");
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let gone = store
        .delete_abandoned_games(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(gone, ["empty"]);
    assert!(store.game("empty").await.unwrap().is_none());
    assert!(store.game("begun").await.unwrap().is_some());
    assert!(store.game("ended").await.unwrap().is_some());
}

async fn standing_offers_are_kept_until_the_game_ends(db: TestDb) {
    let store = Store::open(&db.url).await.unwrap();
    store
        .create_game(&new_game("g", [person("ana"), person("bo")]))
        .await
        .unwrap();
    let fresh = store.game("g").await.unwrap().unwrap();
    assert_eq!((fresh.draw_offer, fresh.takeback_request), (None, None));
    store
        .set_offers("g", Some(Side::White), Some(Side::Black))
        .await
        .unwrap();
    store.close().await;
    let store = Store::open(&db.url).await.unwrap();
    let reopened = store.game("g").await.unwrap().unwrap();
    assert_eq!(
        (reopened.draw_offer, reopened.takeback_request),
        (Some(Side::White), Some(Side::Black))
    );
    assert!(matches!(
        store.set_offers("nothing", None, None).await,
        Err(StoreError::UnknownGame(_))
    ));
    store
        .finish_game(
            "g",
            &GameEnd {
                winner: None,
                reason: "agreement".to_owned(),
                remaining_ms: [None, None],
            },
        )
        .await
        .unwrap();
    let ended = store.game("g").await.unwrap().unwrap();
    assert_eq!((ended.draw_offer, ended.takeback_request), (None, None));
    assert!(matches!(
        store.set_offers("g", Some(Side::Black), None).await,
        Err(StoreError::Conflict { .. })
    ));
    // On PostgreSQL every change counted in the version (create 0, offers, end).
    match db.backend {
        common::Backend::Postgres => assert_eq!(ended.version, Some(2)),
        common::Backend::Sqlite => assert_eq!(ended.version, None),
    }
}

#[tokio::test]
async fn a_file_in_folders_that_do_not_exist_yet_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("nested/dir/t.db").display());
    let store = Store::open(&url).await.unwrap();
    store
        .create_game(&new_game("g1", [person("ana"), person("bo")]))
        .await
        .unwrap();
    store.close().await;
    let store = Store::open(&url).await.unwrap();
    assert!(store.game("g1").await.unwrap().is_some());
}

fn mv(text: &str, white: u64, black: u64) -> MoveRecord {
    MoveRecord {
        text: text.to_owned(),
        white_ms: Some(white),
        black_ms: Some(black),
    }
}

async fn games_moves_and_results_survive_reopening(db: TestDb) {
    let url = db.url;
    let store = Store::open(&url).await.unwrap();
    store
        .create_game(&new_game("g1", [person("ana"), person("bo")]))
        .await
        .unwrap();
    let duplicate = store
        .create_game(&new_game("g1", [person("x"), person("y")]))
        .await;
    assert!(
        matches!(duplicate, Err(StoreError::Conflict { .. })),
        "{duplicate:?}"
    );

    store
        .append_move("g1", 0, &mv("e2e4", 61_000, 60_000))
        .await
        .unwrap();
    store
        .append_move("g1", 1, &mv("e7e5", 61_000, 59_500))
        .await
        .unwrap();
    // The same move number twice, or a gap: refused, nothing written.
    for ply in [1, 3] {
        let refused = store.append_move("g1", ply, &mv("g1f3", 1, 1)).await;
        assert!(
            matches!(refused, Err(StoreError::Conflict { .. })),
            "{refused:?}"
        );
    }
    assert!(matches!(
        store.append_move("nope", 0, &mv("e2e4", 1, 1)).await,
        Err(StoreError::UnknownGame(_))
    ));
    store
        .append_move("g1", 2, &mv("g1f3", 60_000, 59_500))
        .await
        .unwrap();
    store
        .take_back("g1", 2, [Some(61_000), Some(59_500)])
        .await
        .unwrap();
    store.close().await;

    let store = Store::open(&url).await.unwrap();
    let game = store.game("g1").await.unwrap().unwrap();
    assert_eq!(
        game.moves,
        [mv("e2e4", 61_000, 60_000), mv("e7e5", 61_000, 59_500)]
    );
    assert_eq!(game.remaining_ms, [Some(61_000), Some(59_500)]);
    assert!(token_matches(
        game.seats[0].token_hash.as_deref().unwrap(),
        "token-of-ana"
    ));
    assert_eq!(game.status, GameStatus::Playing);
    assert_eq!(store.unfinished_games().await.unwrap().len(), 1);

    store
        .finish_game(
            "g1",
            &GameEnd {
                winner: Some(Side::Black),
                reason: "resignation".to_owned(),
                remaining_ms: [Some(1), Some(2)],
            },
        )
        .await
        .unwrap();
    let again = store
        .finish_game(
            "g1",
            &GameEnd {
                winner: None,
                reason: "agreement".to_owned(),
                remaining_ms: [None, None],
            },
        )
        .await;
    assert!(
        matches!(again, Err(StoreError::Conflict { .. })),
        "a result is final"
    );
    let refused = store.append_move("g1", 2, &mv("g1f3", 1, 1)).await;
    assert!(
        matches!(refused, Err(StoreError::Conflict { .. })),
        "no move after the end"
    );

    let game = store.game("g1").await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Finished);
    assert_eq!(game.winner, Some(Side::Black));
    assert_eq!(game.reason.as_deref(), Some("resignation"));
    assert!(store.unfinished_games().await.unwrap().is_empty());

    let players = store.players().await.unwrap();
    let names: Vec<_> = players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["ana", "bo"], "registration order");
    assert_eq!((players[0].stats[0].lost, players[1].stats[0].won), (1, 1));

    // An import that updates known names draws row ids without using them: the
    // numbers stay 1, 2, 3 in registration order.
    let file = tablero_store::parse_player_file("ana_1_1; bo_2_2; cy_3_3;").unwrap();
    store.import_players(&file).await.unwrap();
    let numbers: Vec<(u32, String)> = store
        .players()
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.number, p.name))
        .collect();
    assert_eq!(
        numbers,
        [(1, "ana".into()), (2, "bo".into()), (3, "cy".into())]
    );

    let finished = GameFilter {
        status: Some(GameStatus::Finished),
        ..GameFilter::default()
    };
    let list = store.list_games(&finished, 10, 0).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        (list[0].plies, list[0].seats[0].token_hash.as_deref()),
        (2, None)
    );
}

async fn imported_games_and_computer_seats(db: TestDb) {
    let store = Store::open(&db.url).await.unwrap();
    let mut game = new_game(
        "g2",
        [
            person("li"),
            Seat {
                name: None,
                level: Some(7),
                token_hash: None,
            },
        ],
    );
    game.game = "chess3d".to_owned();
    game.seed = Some(0xdead_beef_0000_0001);
    game.mode = Mode::Computer;
    game.moves = vec![mv("a", 1, 2), mv("b", 3, 4)];
    game.finished = Some((None, "agreement".to_owned()));
    store.create_game(&game).await.unwrap();
    let stored = store.game("g2").await.unwrap().unwrap();
    assert_eq!(stored.seed, Some(0xdead_beef_0000_0001));
    assert_eq!(stored.seats[1].level, Some(7));
    assert_eq!(stored.moves.len(), 2);
    assert_eq!(stored.remaining_ms, [Some(3), Some(4)]);
    assert_eq!((stored.status, stored.winner), (GameStatus::Finished, None));
    assert!(store.delete_player("li").await.unwrap());
    assert!(!store.delete_player("li").await.unwrap());
    let kept = store.game("g2").await.unwrap().unwrap();
    assert_eq!(
        kept.seats[0].name.as_deref(),
        Some("li"),
        "games keep the name"
    );
}

#[tokio::test]
async fn bad_urls_are_named() {
    for url in ["mysql://db", ""] {
        let error = Store::open(url).await.unwrap_err();
        assert!(matches!(error, StoreError::Url { .. }), "{url}: {error}");
    }
}

async fn clocks_and_change_times_follow_the_last_move(db: TestDb) {
    let url = db.url;
    let store = Store::open(&url).await.unwrap();
    for id in ["older", "newer"] {
        store
            .create_game(&new_game(id, [person("ana"), person("bo")]))
            .await
            .unwrap();
    }
    let fresh = store.game("older").await.unwrap().unwrap();
    assert_eq!(fresh.remaining_ms, [Some(60_000), Some(60_000)]);
    // "newer" was created last, but "older" has a move since: it changed last.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    store
        .append_move("older", 0, &mv("e2e4", 58_000, 60_000))
        .await
        .unwrap();
    let list = store
        .list_games(&GameFilter::default(), 10, 0)
        .await
        .unwrap();
    let order: Vec<&str> = list.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(order, ["older", "newer"]);
    // A browser's own games by their ids (unknown ids are no error), and by game.
    let mine = GameFilter {
        ids: Some(vec!["newer".into(), "nosuchgame".into()]),
        ..GameFilter::default()
    };
    let own = store.list_games(&mine, 10, 0).await.unwrap();
    assert_eq!(
        own.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
        ["newer"]
    );
    let none = GameFilter {
        ids: Some(Vec::new()),
        ..GameFilter::default()
    };
    assert!(store.list_games(&none, 10, 0).await.unwrap().is_empty());
    let xiangqi = GameFilter {
        game: Some("xiangqi".into()),
        ..GameFilter::default()
    };
    assert!(store.list_games(&xiangqi, 10, 0).await.unwrap().is_empty());
    let chess = GameFilter {
        game: Some(list_game_of(&store, "older").await),
        ..GameFilter::default()
    };
    assert_eq!(store.list_games(&chess, 10, 0).await.unwrap().len(), 2);
    assert!(list[0].updated_at > list[1].updated_at, "{list:?}");

    store
        .append_move("older", 1, &mv("e7e5", 58_000, 57_000))
        .await
        .unwrap();
    store.close().await;
    let store = Store::open(&url).await.unwrap();
    let playing = store.unfinished_games().await.unwrap();
    let older = playing.iter().find(|g| g.id == "older").unwrap();
    assert_eq!(older.remaining_ms, [Some(58_000), Some(57_000)]);
    assert_eq!(
        store.game("older").await.unwrap().unwrap().remaining_ms,
        [Some(58_000), Some(57_000)]
    );

    // A takeback sets the clocks; the moves after it set them again.
    store
        .take_back("older", 1, [Some(58_000), Some(60_000)])
        .await
        .unwrap();
    let game = store.game("older").await.unwrap().unwrap();
    assert_eq!(game.remaining_ms, [Some(58_000), Some(60_000)]);
    store
        .append_move("older", 1, &mv("c7c5", 58_000, 55_000))
        .await
        .unwrap();
    let game = store.game("older").await.unwrap().unwrap();
    assert_eq!(game.remaining_ms, [Some(58_000), Some(55_000)]);

    // A finished game keeps the clocks of its end (a flag falls after the last move).
    store
        .finish_game(
            "older",
            &GameEnd {
                winner: Some(Side::White),
                reason: "timeout".to_owned(),
                remaining_ms: [Some(1_000), Some(0)],
            },
        )
        .await
        .unwrap();
    let game = store.game("older").await.unwrap().unwrap();
    assert_eq!(game.remaining_ms, [Some(1_000), Some(0)]);
}

async fn of_two_moves_with_one_number_exactly_one_is_stored(db: TestDb) {
    let store = Store::open(&db.url).await.unwrap();
    for round in 0..20 {
        let id = format!("g{round}");
        store
            .create_game(&new_game(&id, [person("ana"), person("bo")]))
            .await
            .unwrap();
        // Sent at once, they usually land in one batch.
        let (first, second) = (mv("e2e4", 1, 1), mv("d2d4", 2, 2));
        let (a, b) = tokio::join!(
            store.append_move(&id, 0, &first),
            store.append_move(&id, 0, &second),
        );
        assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
        let game = store.game(&id).await.unwrap().unwrap();
        let expected = if a.is_ok() { "e2e4" } else { "d2d4" };
        assert_eq!(game.moves.len(), 1);
        assert_eq!(game.moves[0].text, expected);
    }
}

#[tokio::test]
async fn the_wal_is_copied_back_into_the_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let before = std::fs::metadata(&path).unwrap().len();
    for round in 0..200 {
        let id = format!("game-with-a-long-identifier-{round:04}");
        store
            .create_game(&new_game(&id, [person("ana"), person("bo")]))
            .await
            .unwrap();
        store.append_move(&id, 0, &mv("e2e4", 1, 1)).await.unwrap();
    }
    // The writer never checkpoints by itself: only the checkpoint task grows the file.
    let mut grown = false;
    for _ in 0..100 {
        if std::fs::metadata(&path).unwrap().len() > before {
            grown = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(grown, "the database file stayed at {before} bytes");
}

#[tokio::test]
async fn plain_tokens_of_an_older_version_become_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    let store = Store::open(&url).await.unwrap();
    store
        .create_game(&new_game("old", [person("ana"), person("bo")]))
        .await
        .unwrap();
    store.close().await;
    // As versions before migration 3 stored them: the secret itself.
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE games SET white_token = 'plain-white', black_token = 'plain-black',
            white_token_hash = NULL, black_token_hash = NULL",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::Connection::close(conn).await.unwrap();

    let store = Store::open(&url).await.unwrap();
    let game = store.game("old").await.unwrap().unwrap();
    assert!(token_matches(
        game.seats[0].token_hash.as_deref().unwrap(),
        "plain-white"
    ));
    assert!(token_matches(
        game.seats[1].token_hash.as_deref().unwrap(),
        "plain-black"
    ));
    store.close().await;
    let bytes = std::fs::read(dir.path().join("old.db")).unwrap();
    assert!(
        !bytes.windows(11).any(|w| w == b"plain-white"),
        "the secret is gone from the file"
    );
}

#[tokio::test]
async fn a_read_only_store_reads_and_refuses_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ro.db").display());
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.health(), tablero_store::StoreHealth::Writable);
    store
        .create_game(&new_game("kept", [person("ana"), person("bo")]))
        .await
        .unwrap();
    store.close().await;
    let store = Store::open_read_only(&url).await.unwrap();
    assert_eq!(store.health(), tablero_store::StoreHealth::ReadOnly);
    assert!(store.game("kept").await.unwrap().is_some());
    let refused = store
        .create_game(&new_game("new", [person("x"), person("y")]))
        .await;
    assert!(matches!(refused, Err(StoreError::ReadOnly)), "{refused:?}");
    let missing = Store::open_read_only(&format!(
        "sqlite://{}",
        dir.path().join("missing.db").display()
    ))
    .await;
    assert!(missing.is_err());
}

/// The game id (`chess`, ...) of stored game `id`.
async fn list_game_of(store: &Store, id: &str) -> String {
    store.game(id).await.unwrap().unwrap().game
}
