//! Several server processes on one PostgreSQL database, each with its own `Store`:
//! of two moves for one game through two of them exactly one is stored, every change
//! is announced to the others, and results ending at once on different processes
//! lose no count and no rating.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use std::time::Duration;

use common::{Backend, TestDb};
use tablero_core::Side;
use tablero_store::{GameEnd, Mode, MoveRecord, NewGame, Seat, Store, StoreError, StoreEvent};

/// Three stores on one new database, as three processes would have.
async fn three_processes() -> Option<[Store; 3]> {
    let db = TestDb::new(Backend::Postgres).await?;
    let a = Store::open(&db.url).await.unwrap();
    let b = Store::open(&db.url).await.unwrap();
    let c = Store::open(&db.url).await.unwrap();
    Some([a, b, c])
}

fn online_game(id: &str, white: &str, black: &str) -> NewGame {
    let person = |name: &str| Seat {
        name: Some(name.to_owned()),
        ..Seat::default()
    };
    NewGame {
        id: id.to_owned(),
        game: "chess".to_owned(),
        variant: "standard".to_owned(),
        start_position: "start".to_owned(),
        seed: None,
        mode: Mode::Online,
        seats: [person(white), person(black)],
        clock: None,
        moves: Vec::new(),
        finished: None,
        tags: Vec::new(),
    }
}

fn mv(text: &str) -> MoveRecord {
    MoveRecord {
        text: text.to_owned(),
        white_ms: None,
        black_ms: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_two_moves_through_two_processes_exactly_one_is_stored() {
    let Some([a, b, _]) = three_processes().await else {
        return;
    };
    for round in 0..30 {
        let id = format!("g{round}");
        a.create_game(&online_game(&id, "ana", "bo")).await.unwrap();
        for ply in 0..3 {
            let (first, second) = (mv(&format!("a{ply}")), mv(&format!("b{ply}")));
            let (x, y) = tokio::join!(
                a.append_move(&id, ply, &first),
                b.append_move(&id, ply, &second)
            );
            assert!(
                x.is_ok() != y.is_ok(),
                "round {round} ply {ply}: {x:?} {y:?}"
            );
            let refused = if x.is_ok() { y } else { x };
            assert!(
                matches!(refused, Err(StoreError::Conflict { .. })),
                "{refused:?}"
            );
        }
        let stored = b.game(&id).await.unwrap().unwrap();
        assert_eq!(stored.moves.len(), 3, "one move per number, in order");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_change_is_announced_to_the_other_processes() {
    let Some([a, b, c]) = three_processes().await else {
        return;
    };
    let mut on_b = b.subscribe().expect("PostgreSQL announces changes");
    let mut on_c = c.subscribe().expect("PostgreSQL announces changes");
    a.create_game(&online_game("watched", "ana", "bo"))
        .await
        .unwrap();
    a.append_move("watched", 0, &mv("e2e4")).await.unwrap();
    a.take_back("watched", 0, [None, None]).await.unwrap();
    a.finish_game(
        "watched",
        &GameEnd {
            winner: Some(Side::Black),
            reason: "resignation".to_owned(),
            remaining_ms: [None, None],
        },
    )
    .await
    .unwrap();
    for events in [&mut on_b, &mut on_c] {
        for change in ["move", "take-back", "end"] {
            let event = tokio::time::timeout(Duration::from_secs(5), events.recv())
                .await
                .unwrap_or_else(|_| panic!("the {change} was not announced"))
                .unwrap();
            assert_eq!(
                event,
                StoreEvent::GameChanged {
                    id: "watched".to_owned()
                }
            );
        }
    }
    // A refused write announces nothing.
    assert!(a.append_move("watched", 0, &mv("d2d4")).await.is_err());
    let quiet = tokio::time::timeout(Duration::from_millis(300), on_b.recv()).await;
    assert!(quiet.is_err(), "{quiet:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn results_ending_at_once_on_three_processes_lose_no_count_and_no_rating() {
    let Some(stores) = three_processes().await else {
        return;
    };
    // 30 games among three people, each game ended through another process, all at
    // once: every end updates two players' counts and ratings.
    let people = ["ana", "bo", "cy"];
    let mut ends = Vec::new();
    for i in 0..30 {
        let (white, black) = (people[i % 3], people[(i + 1) % 3]);
        let id = format!("r{i}");
        stores[0]
            .create_game(&online_game(&id, white, black))
            .await
            .unwrap();
        let store = stores[i % 3].clone();
        ends.push(tokio::spawn(async move {
            store
                .finish_game(
                    &id,
                    &GameEnd {
                        winner: [Some(Side::White), Some(Side::Black), None][i % 3],
                        reason: "resignation".to_owned(),
                        remaining_ms: [None, None],
                    },
                )
                .await
        }));
    }
    for end in ends {
        end.await.unwrap().unwrap();
    }
    let players = stores[1].players().await.unwrap();
    for player in &players {
        let totals = player.totals(Some("chess"));
        assert_eq!(totals.won + totals.lost + totals.drawn, 20, "{player:?}");
        assert_eq!(player.rating("chess").unwrap().games, 20, "{player:?}");
    }
    let won: u32 = players.iter().map(|p| p.totals(None).won).sum();
    let lost: u32 = players.iter().map(|p| p.totals(None).lost).sum();
    assert_eq!((won, lost), (20, 20));
}

#[tokio::test]
async fn a_server_that_cannot_be_reached_is_named_without_its_password() {
    let error = Store::open("postgres://tablero:secret@127.0.0.1:1/tablero")
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, StoreError::NotWritable { .. }), "{text}");
    assert!(text.contains("127.0.0.1:1/tablero"), "{text}");
    assert!(!text.contains("secret"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_whose_process_is_gone_is_taken_over_by_exactly_one_other() {
    let Some([a, b, c]) = three_processes().await else {
        return;
    };
    let mut game = online_game("clocked", "ana", "bo");
    game.clock = Some(tablero_store::ClockRecord {
        kind: tablero_store::ClockKind::Fischer,
        initial_ms: 60_000,
        increment_ms: 0,
    });
    a.create_game(&game).await.unwrap();
    a.create_game(&online_game("unclocked", "ana", "bo"))
        .await
        .unwrap();
    assert!(a.claim_game("clocked").await.unwrap(), "its creator has it");
    assert!(
        !b.claim_game("clocked").await.unwrap(),
        "a live process keeps it"
    );
    assert!(b.claim_orphans().await.unwrap().is_empty());
    // `a` stops renewing its lease, as a killed process would.
    a.close().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let (mut by_b, mut by_c) = (Vec::new(), Vec::new());
    while by_b.is_empty() && by_c.is_empty() {
        assert!(std::time::Instant::now() < deadline, "nobody took it over");
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (x, y) = tokio::join!(b.claim_orphans(), c.claim_orphans());
        by_b.extend(x.unwrap());
        by_c.extend(y.unwrap());
    }
    let mut taken: Vec<String> = by_b.iter().chain(&by_c).cloned().collect();
    taken.sort();
    assert_eq!(
        taken,
        ["clocked"],
        "once, and only the game that needs a process"
    );
    let (owner, other) = if by_b.is_empty() { (&c, &b) } else { (&b, &c) };
    assert!(owner.claim_game("clocked").await.unwrap());
    assert!(!other.claim_game("clocked").await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_stored_change_counts_once_in_the_version_every_process_reads() {
    let Some([a, b, _]) = three_processes().await else {
        return;
    };
    a.create_game(&online_game("v", "ana", "bo")).await.unwrap();
    a.append_move("v", 0, &mv("e2e4")).await.unwrap();
    assert_eq!(a.game_version("v").await.unwrap(), Some(1));
    // A refused move changes nothing.
    assert!(b.append_move("v", 0, &mv("d2d4")).await.is_err());
    b.append_move("v", 1, &mv("e7e5")).await.unwrap();
    assert_eq!(b.game_version("v").await.unwrap(), Some(2));
    let end = GameEnd {
        winner: Some(Side::White),
        reason: "checkmate".to_owned(),
        remaining_ms: [None, None],
    };
    // The last move and the end: two changes in one transaction.
    a.append_final_move("v", 2, &mv("f1c4"), &end)
        .await
        .unwrap();
    assert_eq!(a.game_version("v").await.unwrap(), Some(4));
    let stored = b.game("v").await.unwrap().unwrap();
    assert_eq!((stored.version, stored.moves.len()), (Some(4), 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn clocks_stand_still_while_no_process_is_alive_and_run_while_one_is() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let a = Store::open(&db.url).await.unwrap();
    let mut game = online_game("timed", "ana", "bo");
    game.clock = Some(tablero_store::ClockRecord {
        kind: tablero_store::ClockKind::Fischer,
        initial_ms: 600_000,
        increment_ms: 0,
    });
    a.create_game(&game).await.unwrap();
    a.append_move("timed", 0, &mv("e2e4")).await.unwrap();
    // Every process gone for 4.5 s, longer than a lease (3 s): an outage.
    a.close().await;
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let b = Store::open(&db.url).await.unwrap();
    let used = b.game("timed").await.unwrap().unwrap().turn_used_ms;
    assert!(used < 1_500, "the outage counted: {used} ms");
    // With a process alive (b), time runs: 2 s later the turn has used them.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let c = Store::open(&db.url).await.unwrap();
    let used = c.game("timed").await.unwrap().unwrap().turn_used_ms;
    assert!((2_000..3_500).contains(&used), "{used} ms");
}
