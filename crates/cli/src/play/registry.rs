//! `tablero play --db`: finished games go to the database `tablero serve` uses, so
//! that they count in the player registry (`tablero players`, reports) exactly as the
//! server's games do: the game is stored, then ended with the store call the server
//! makes when a game ends ([`Store::finish_game`]), which counts the result for each
//! named person and rates it as the server would. Two people at one terminal are a
//! hot-seat game (counted, not rated), a person against the computer a computer game.

use tablero_core::Outcome;
use tablero_store::{ClockKind, ClockRecord, GameEnd, Mode, MoveRecord, NewGame, Seat, Store};

/// An open database and the runtime its calls run on.
#[derive(Debug)]
pub(crate) struct Registry {
    runtime: tokio::runtime::Runtime,
    store: Store,
    /// What `--db` said, for messages.
    pub(crate) name: String,
}

/// A finished game to store.
#[derive(Debug, Clone)]
pub(crate) struct FinishedGame {
    /// Game and variant ids, the start position and chess3d's seed.
    pub(crate) game: String,
    pub(crate) variant: String,
    pub(crate) start_position: String,
    pub(crate) seed: Option<u64>,
    /// Names of the people (white or red first); `None` for the computer's side or
    /// an unnamed person.
    pub(crate) names: [Option<String>; 2],
    /// The computer's level on each side it plays.
    pub(crate) levels: [Option<u8>; 2],
    /// The clock, if the game had one.
    pub(crate) clock: Option<ClockRecord>,
    /// Moves with the clocks after each.
    pub(crate) moves: Vec<MoveRecord>,
    pub(crate) outcome: Outcome,
    /// The remaining times at the end.
    pub(crate) remaining_ms: [Option<u64>; 2],
}

impl Registry {
    /// Opens (and creates, migrates) the database at `path` (a file, or a
    /// `sqlite://` URL).
    ///
    /// # Errors
    ///
    /// When the runtime cannot start or the database cannot be opened.
    pub(crate) fn open(path: &str) -> Result<Registry, String> {
        let url = if path.contains("://") {
            path.to_owned()
        } else {
            Store::url_for(std::path::Path::new(path))
        };
        let runtime = crate::players_command::runtime()?;
        let store = runtime
            .block_on(Store::open(&url))
            .map_err(|e| format!("--db {path}: {e}"))?;
        Ok(Registry {
            runtime,
            store,
            name: path.to_owned(),
        })
    }

    /// Stores `game` and its result; returns the game's id.
    ///
    /// # Errors
    ///
    /// The store's message when it refuses.
    pub(crate) fn record(&self, game: FinishedGame) -> Result<String, String> {
        let id = format!("play{:016x}", tablero_games::fresh_seed());
        let people = game.levels.iter().filter(|l| l.is_none()).count();
        let seats = [0, 1].map(|i| Seat {
            name: game.names[i].clone(),
            level: game.levels[i],
            token_hash: None,
        });
        let new_game = NewGame {
            id: id.clone(),
            game: game.game,
            variant: game.variant,
            start_position: game.start_position,
            seed: game.seed,
            mode: if people == 2 {
                Mode::Hotseat
            } else {
                Mode::Computer
            },
            seats,
            clock: game.clock,
            moves: game.moves,
            finished: None,
            tags: Vec::new(),
        };
        let end = GameEnd {
            winner: game.outcome.winner(),
            reason: game.outcome.reason().id().to_owned(),
            remaining_ms: game.remaining_ms,
        };
        self.runtime
            .block_on(async {
                self.store.create_game(&new_game).await?;
                self.store.finish_game(&id, &end).await
            })
            .map_err(|e| e.to_string())?;
        Ok(id)
    }

    /// Waits for the writes and closes the database.
    pub(crate) fn close(self) {
        self.runtime.block_on(self.store.close());
    }
}

/// The store's record of a clock.
pub(crate) fn clock_record(settings: super::clock::ClockSettings) -> ClockRecord {
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    match settings {
        super::clock::ClockSettings::Fischer { base, increment } => ClockRecord {
            kind: ClockKind::Fischer,
            initial_ms: ms(base),
            increment_ms: ms(increment),
        },
        super::clock::ClockSettings::Game { total } => ClockRecord {
            kind: ClockKind::Game,
            initial_ms: ms(total),
            increment_ms: 0,
        },
    }
}
