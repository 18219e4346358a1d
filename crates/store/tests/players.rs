//! Players: import of player files, counts and ratings after games end, deletion,
//! on SQLite and on PostgreSQL.

use tablero_core::Side;
use tablero_store::{GameEnd, Mode, NewGame, Seat, Store, Totals, parse_player_file};

mod common;

use common::TestDb;

async fn open(db: &TestDb) -> Store {
    Store::open(&db.url).await.expect("the store opens")
}

on_both_backends!(
    a_good_file_registers_in_file_order_and_sets_the_counts,
    importing_again_updates_and_never_duplicates,
    a_bad_file_changes_nothing,
    counts_and_ratings_after_games_end,
    the_same_name_on_both_seats_is_counted_but_not_rated,
    a_new_name_starts_at_zero_and_search_ignores_case,
    deleting_a_player_keeps_the_name_in_finished_games,
    hot_seat_games_count_but_are_not_rated,
);

fn person(name: &str) -> Seat {
    Seat {
        name: Some(name.to_owned()),
        ..Seat::default()
    }
}

fn computer(level: u8) -> Seat {
    Seat {
        level: Some(level),
        ..Seat::default()
    }
}

async fn play(store: &Store, id: &str, game: &str, seats: [Seat; 2], winner: Option<Side>) {
    // Games between people are online games here: hot-seat games are not rated.
    let mode = if seats.iter().any(|s| s.level.is_some()) {
        Mode::Computer
    } else {
        Mode::Online
    };
    play_in(store, mode, id, game, seats, winner).await;
}

async fn play_in(
    store: &Store,
    mode: Mode,
    id: &str,
    game: &str,
    seats: [Seat; 2],
    winner: Option<Side>,
) {
    store
        .create_game(&NewGame {
            id: id.to_owned(),
            game: game.to_owned(),
            variant: "standard".to_owned(),
            start_position: "start".to_owned(),
            seed: None,
            mode,
            seats,
            clock: None,
            moves: vec![],
            finished: None,
            tags: Vec::new(),
        })
        .await
        .expect("create");
    store
        .finish_game(
            id,
            &GameEnd {
                winner,
                reason: "resignation".to_owned(),
                remaining_ms: [None, None],
            },
        )
        .await
        .expect("finish");
}

fn names(players: &[tablero_store::PlayerRecord]) -> Vec<&str> {
    players.iter().map(|p| p.name.as_str()).collect()
}

async fn a_good_file_registers_in_file_order_and_sets_the_counts(db: TestDb) {
    let store = open(&db).await;
    let entries = parse_player_file("juanca77_10_4; carlosfp81_7_6; amaya92_12_1; jdark96_11_0;")
        .expect("good file");
    let summary = store.import_players(&entries).await.expect("import");
    assert_eq!(
        summary.added,
        ["juanca77", "carlosfp81", "amaya92", "jdark96"]
    );
    assert!(summary.updated.is_empty());
    let players = store.players().await.expect("players");
    assert_eq!(
        names(&players),
        ["juanca77", "carlosfp81", "amaya92", "jdark96"]
    );
    assert_eq!(
        players.iter().map(|p| p.id).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    let amaya = &players[2];
    assert_eq!(
        amaya.totals(None),
        Totals {
            won: 12,
            lost: 1,
            drawn: 0
        }
    );
    // Imported counts belong to no game kind.
    assert_eq!(amaya.totals(Some("chess")), Totals::default());
}

async fn importing_again_updates_and_never_duplicates(db: TestDb) {
    let store = open(&db).await;
    let first = parse_player_file("ana_10_4; bo_1_1;").expect("file");
    store.import_players(&first).await.expect("import");
    play(
        &store,
        "g1",
        "chess",
        [person("ana"), person("cy")],
        Some(Side::White),
    )
    .await;
    let second = parse_player_file("cy_2_2; ana_3_1;").expect("file");
    let summary = store.import_players(&second).await.expect("import");
    assert!(summary.added.is_empty());
    assert_eq!(summary.updated, ["cy", "ana"]);
    let players = store.players().await.expect("players");
    assert_eq!(names(&players), ["ana", "bo", "cy"]);
    // The file's counts replace the earlier file's; the game played here stays.
    assert_eq!(
        players[0].totals(None),
        Totals {
            won: 4,
            lost: 1,
            drawn: 0
        }
    );
    assert_eq!(
        players[0].imported.as_ref().map(|i| (i.won, i.lost)),
        Some((3, 1))
    );
    // The same file twice counts once.
    store.import_players(&second).await.expect("import");
    let again = store.players().await.expect("players");
    assert_eq!(
        again.iter().map(|p| p.totals(None)).collect::<Vec<_>>(),
        players.iter().map(|p| p.totals(None)).collect::<Vec<_>>()
    );
}

async fn a_bad_file_changes_nothing(db: TestDb) {
    let store = open(&db).await;
    store
        .import_players(&parse_player_file("ana_1_1;").expect("file"))
        .await
        .expect("import");
    let before = store.players().await.expect("players");
    let error = parse_player_file("bo_1_1; ana_9_9; cy_x_1;")
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("record 3 \"cy_x_1\": games won \"x\": expected a whole number from 0 to 4294967295")
    );
    assert_eq!(store.players().await.expect("players"), before);
}

#[tokio::test]
async fn an_import_that_fails_in_the_database_is_rolled_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.db");
    let store = Store::open(&Store::url_for(&path)).await.expect("store");
    store
        .import_players(&parse_player_file("ana_1_1;").expect("file"))
        .await
        .expect("import");
    // A trigger makes the third record's write fail, after two have been written.
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&Store::url_for(&path))
            .await
            .expect("connect");
        sqlx::query(
            "CREATE TRIGGER refuse BEFORE INSERT ON player_imported WHEN NEW.won = 4242
             BEGIN SELECT RAISE(ABORT, 'refused'); END",
        )
        .execute(&mut conn)
        .await
        .expect("trigger");
        conn.close().await.expect("close");
    }
    let before = store.players().await.expect("players");
    let entries = parse_player_file("bo_1_1; ana_5_5; cy_4242_0;").expect("file");
    assert!(store.import_players(&entries).await.is_err());
    assert_eq!(store.players().await.expect("players"), before);
}

async fn counts_and_ratings_after_games_end(db: TestDb) {
    let store = open(&db).await;
    play(
        &store,
        "g1",
        "chess",
        [person("ana"), person("bo")],
        Some(Side::White),
    )
    .await;
    play(&store, "g2", "chess", [person("bo"), person("ana")], None).await;
    play(
        &store,
        "g3",
        "xiangqi",
        [person("bo"), person("ana")],
        Some(Side::White),
    )
    .await;
    play(
        &store,
        "g4",
        "chess",
        [person("ana"), computer(3)],
        Some(Side::Black),
    )
    .await;
    let players = store.players().await.expect("players");
    assert_eq!(names(&players), ["ana", "bo"]);
    let (ana, bo) = (&players[0], &players[1]);
    assert_eq!(
        ana.totals(Some("chess")),
        Totals {
            won: 1,
            lost: 1,
            drawn: 1
        }
    );
    assert_eq!(
        bo.totals(Some("chess")),
        Totals {
            won: 0,
            lost: 1,
            drawn: 1
        }
    );
    assert_eq!(
        ana.totals(None),
        Totals {
            won: 1,
            lost: 2,
            drawn: 1
        }
    );
    // Two rated chess games each (the computer game is not rated), one xiangqi game.
    let ana_chess = ana.rating("chess").expect("rated");
    let bo_chess = bo.rating("chess").expect("rated");
    assert_eq!((ana_chess.games, bo_chess.games), (2, 2));
    assert!(ana_chess.rating.rating > 1500.0 && bo_chess.rating.rating < 1500.0);
    assert!(ana_chess.rating.deviation < 350.0);
    let bo_xiangqi = bo.rating("xiangqi").expect("rated");
    assert_eq!(bo_xiangqi.games, 1);
    assert!(bo_xiangqi.rating.rating > 1500.0);
    assert!(ana.rating("xiangqi").expect("rated").rating.rating < 1500.0);
}

async fn the_same_name_on_both_seats_is_counted_but_not_rated(db: TestDb) {
    let store = open(&db).await;
    play(
        &store,
        "g1",
        "draughts",
        [person("ana"), person("ana")],
        Some(Side::White),
    )
    .await;
    let ana = store
        .player("ana")
        .await
        .expect("read")
        .expect("registered");
    assert_eq!(
        ana.totals(Some("draughts")),
        Totals {
            won: 1,
            lost: 1,
            drawn: 0
        }
    );
    assert!(ana.ratings.is_empty());
}

async fn a_new_name_starts_at_zero_and_search_ignores_case(db: TestDb) {
    let store = open(&db).await;
    store
        .create_game(&NewGame {
            id: "g1".into(),
            game: "chess".into(),
            variant: "standard".into(),
            start_position: "start".into(),
            seed: None,
            mode: Mode::Online,
            seats: [person("Ana.M"), person("bo")],
            clock: None,
            moves: vec![],
            finished: None,
            tags: Vec::new(),
        })
        .await
        .expect("create");
    let ana = store
        .player("Ana.M")
        .await
        .expect("read")
        .expect("registered");
    assert_eq!(ana.totals(None), Totals::default());
    let found = store.search_players("ana").await.expect("search");
    assert_eq!(names(&found), ["Ana.M"]);
    assert!(store.search_players("zz").await.expect("search").is_empty());
}

async fn deleting_a_player_keeps_the_name_in_finished_games(db: TestDb) {
    let store = open(&db).await;
    play(
        &store,
        "g1",
        "chess",
        [person("ana"), person("bo")],
        Some(Side::White),
    )
    .await;
    assert!(store.delete_player("ana").await.expect("delete"));
    assert!(!store.delete_player("ana").await.expect("delete"));
    assert_eq!(names(&store.players().await.expect("players")), ["bo"]);
    let game = store.game("g1").await.expect("read").expect("kept");
    assert_eq!(game.seats[0].name.as_deref(), Some("ana"));
    // A name used again registers a new player, last in registration order.
    play(&store, "g2", "chess", [person("ana"), person("bo")], None).await;
    let players = store.players().await.expect("players");
    assert_eq!(names(&players), ["bo", "ana"]);
    assert_eq!(
        players[1].totals(None),
        Totals {
            won: 0,
            lost: 0,
            drawn: 1
        }
    );
    assert_eq!(players[1].rating("chess").map(|r| r.games), Some(1));
}

async fn hot_seat_games_count_but_are_not_rated(db: TestDb) {
    let store = open(&db).await;
    let seats = [person("ana"), person("bo")];
    play_in(
        &store,
        Mode::Hotseat,
        "hs",
        "chess",
        seats,
        Some(Side::White),
    )
    .await;
    let ana = store.player("ana").await.expect("read").expect("ana");
    assert_eq!(ana.totals(Some("chess")).won, 1);
    assert!(ana.rating("chess").is_none(), "one person held both seats");
}
