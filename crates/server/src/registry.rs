//! The loaded games: one lock and one broadcast channel per game. Every change is
//! made under the game's lock and written to the store before the lock is released,
//! so that an acknowledged move is durable and two moves sent at once cannot both be
//! accepted.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use rand::Rng;
use tablero_core::Side;
use tablero_games::{AnyEngine, Clock, Level, Limits, SearchRequest};
use tablero_store::{ClockKind, GameEnd, Store};
use tokio::sync::{Mutex, Semaphore, broadcast};

use crate::ApiError;
use crate::live::{Change, LiveGame, Setup};
use crate::view::GameView;

/// The follow-ups of a change call each other (a computer move starts the flag timer
/// that may end the game...): a boxed future breaks the cycle of future types.
type BoxFuture = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// One loaded game.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) game: Mutex<LiveGame>,
    /// Each change's state, serialised once for every watcher (cheap to clone).
    pub(crate) updates: broadcast::Sender<Utf8Bytes>,
}

/// What a seat asks for.
#[derive(Debug, Clone)]
pub(crate) enum Action {
    Move(String),
    TakeBack,
    AcceptTakeBack,
    DeclineTakeBack,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimDraw,
}

/// Every loaded game and what plays the computer seats.
#[derive(Debug)]
pub(crate) struct GameRegistry {
    store: Store,
    slots: SyncMutex<HashMap<String, Arc<Slot>>>,
    engines: EnginePool,
    /// The computer-only games in progress, with the address that created each
    /// (unknown for games resumed after a restart).
    computer_games: SyncMutex<HashMap<String, Option<IpAddr>>>,
    caps: ComputerGameCaps,
}

/// How many computer-only games may be in progress (0: no cap).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ComputerGameCaps {
    pub(crate) total: usize,
    pub(crate) per_address: usize,
}

impl GameRegistry {
    pub(crate) fn new(
        store: Store,
        engine_threads: usize,
        computer_threads: usize,
        caps: ComputerGameCaps,
    ) -> GameRegistry {
        GameRegistry {
            store,
            slots: SyncMutex::new(HashMap::new()),
            engines: EnginePool::new(engine_threads, computer_threads),
            computer_games: SyncMutex::new(HashMap::new()),
            caps,
        }
    }

    /// Takes a place for a new computer-only game from `client`, or says which cap
    /// is reached.
    fn admit_computer_game(&self, id: &str, client: Option<IpAddr>) -> Result<(), ApiError> {
        let mut games = self
            .computer_games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let too_many =
            |message: String| ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, message);
        if self.caps.total > 0 && games.len() >= self.caps.total {
            return Err(too_many(format!(
                "the server plays {} computer-only games already (its limit): try again when one ends",
                games.len()
            )));
        }
        if let Some(client) = client
            && self.caps.per_address > 0
            && games.values().filter(|c| **c == Some(client)).count() >= self.caps.per_address
        {
            return Err(too_many(format!(
                "at most {} computer-only games in progress from one address",
                self.caps.per_address
            )));
        }
        games.insert(id.to_owned(), client);
        Ok(())
    }

    fn release_computer_game(&self, id: &str) {
        self.computer_games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every unfinished game from the store and lets it go on: computer seats
    /// think again, clocks run from now. Games whose record cannot be replayed are
    /// logged and left alone.
    ///
    /// On a database that other processes share, games are not all resumed here: the
    /// games whose process is gone are taken over by [`GameRegistry::look_after`]
    /// (started here, with [`GameRegistry::follow_others`]), a batch at a time by
    /// whichever process claims them first.
    pub(crate) async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        if self.store.is_read_only() {
            return Ok(0);
        }
        if self.store.is_shared() {
            if let Some(events) = self.store.subscribe() {
                tokio::spawn(follow_others(Arc::downgrade(self), events));
            }
            tokio::spawn(look_after(Arc::downgrade(self)));
            return Ok(0);
        }
        let stored = self.store.unfinished_games().await?;
        let mut resumed = 0;
        for record in stored {
            match LiveGame::from_record(record) {
                Ok(game) if game.ended.is_some() => self.repair(&game).await?,
                Ok(game) => {
                    if !game.person_plays() {
                        self.computer_games
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .insert(game.id.clone(), None);
                    }
                    let slot = self.insert(game);
                    self.follow_up(&slot).await;
                    resumed += 1;
                }
                Err(e) => tracing::error!(error = %e, "a stored game cannot be resumed"),
            }
        }
        Ok(resumed)
    }

    /// Ends a game whose moves say it is over though its row says it goes on (an
    /// older version stored the last move and the result apart, and could stop in
    /// between): the result, the players' counts and ratings are stored now.
    async fn repair(&self, game: &LiveGame) -> Result<(), ApiError> {
        let Some(outcome) = game.ended else {
            return Ok(());
        };
        tracing::warn!(game = %game.id, result = %game.describe(outcome), "a game stored as in progress had ended: its result is stored now");
        self.store
            .finish_game(
                &game.id,
                &game_end(&outcome, game.stored_clocks(Instant::now())),
            )
            .await?;
        Ok(())
    }

    fn insert(&self, game: LiveGame) -> Arc<Slot> {
        let id = game.id.clone();
        let (updates, _) = broadcast::channel(16);
        let slot = Arc::new(Slot {
            game: Mutex::new(game),
            updates,
        });
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id, Arc::clone(&slot));
        slot
    }

    /// Creates a game: stored first, then loaded; the computer starts thinking if it
    /// moves first.
    pub(crate) async fn create(
        self: &Arc<Self>,
        setup: Setup,
        client: Option<IpAddr>,
    ) -> Result<GameView, ApiError> {
        self.check_writable()?;
        let games = Arc::clone(self);
        to_the_end(async move { games.create_now(setup, client).await }).await
    }

    /// Refuses a change at once on a read-only server.
    fn check_writable(&self) -> Result<(), ApiError> {
        if self.store.is_read_only() {
            return Err(ApiError::storage(&tablero_store::StoreError::ReadOnly));
        }
        Ok(())
    }

    async fn create_now(
        self: &Arc<Self>,
        setup: Setup,
        client: Option<IpAddr>,
    ) -> Result<GameView, ApiError> {
        let game = LiveGame::create(new_id(), setup)?;
        let computer_only = !game.person_plays() && game.ended.is_none();
        if computer_only {
            self.admit_computer_game(&game.id, client)?;
        }
        if let Err(e) = self.store.create_game(&game.to_new_game()).await {
            self.release_computer_game(&game.id);
            return Err(e.into());
        }
        let view = game.view(Instant::now());
        let slot = self.insert(game);
        self.follow_up(&slot).await;
        Ok(view)
    }

    /// The game `id`, loaded from the store if needed.
    ///
    /// # Errors
    ///
    /// 404 for an unknown id.
    pub(crate) async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Ok(Arc::clone(slot));
        }
        let unknown = || ApiError::game_not_found(id);
        if !valid_id(id) {
            return Err(unknown());
        }
        let record = self.store.game(id).await?.ok_or_else(unknown)?;
        let game = LiveGame::from_record(record).map_err(|e| {
            tracing::error!(error = %e, "a stored game cannot be loaded");
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("game {id:?} cannot be loaded"),
            )
        })?;
        if game.ended.is_some() {
            let (updates, _) = broadcast::channel(1);
            return Ok(Arc::new(Slot {
                game: Mutex::new(game),
                updates,
            }));
        }
        // Another request may have loaded it meanwhile: keep the first.
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let slot = slots.entry(id.to_owned()).or_insert_with(|| {
            let (updates, _) = broadcast::channel(16);
            Arc::new(Slot {
                game: Mutex::new(game),
                updates,
            })
        });
        Ok(Arc::clone(slot))
    }

    /// Deletes the games that never got a move and have been idle for `idle`, and
    /// drops them from memory; returns how many went.
    pub(crate) async fn delete_abandoned(&self, idle: Duration) -> Result<usize, ApiError> {
        let ids = self.store.delete_abandoned_games(idle).await?;
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for id in &ids {
            slots.remove(id);
        }
        Ok(ids.len())
    }

    /// The state of game `id` now.
    pub(crate) async fn view(&self, id: &str) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let mut game = slot.game.lock().await;
        if !self.store.is_read_only()
            && let Some(change) = game.check_flag(Instant::now())
        {
            self.commit(&mut game, &slot, change, None).await?;
        }
        Ok(game.view(Instant::now()))
    }

    /// The side to move in game `id`, if it is in progress (a list's "whose turn").
    ///
    /// # Errors
    ///
    /// 404 for an unknown id.
    pub(crate) async fn turn(&self, id: &str) -> Result<Option<&'static str>, ApiError> {
        let slot = self.slot(id).await?;
        let game = slot.game.lock().await;
        Ok(game
            .ended
            .is_none()
            .then(|| game.side_name(game.record.turn())))
    }

    /// A seat holder's request: authenticated by `token`, applied, stored, announced.
    pub(crate) async fn act(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Action,
    ) -> Result<Utf8Bytes, ApiError> {
        self.check_writable()?;
        let games = Arc::clone(self);
        let (id, token) = (id.to_owned(), token.map(str::to_owned));
        to_the_end(async move { games.act_now(&id, token.as_deref(), action).await }).await
    }

    async fn act_now(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Action,
    ) -> Result<Utf8Bytes, ApiError> {
        let slot = self.slot(id).await?;
        let state = {
            let mut game = slot.game.lock().await;
            let side = game.seat_of(token)?;
            let now = Instant::now();
            // A flag that fell before this request ends the game first.
            if let Some(change) = game.check_flag(now) {
                self.commit(&mut game, &slot, change, None).await?;
            }
            let before = game.snapshot();
            let change = match apply(&mut game, side, &action, now) {
                Ok(change) => change,
                // Refused by a copy that another process has made stale (its
                // announcement still on the way): judged again on the stored game.
                Err(_) if self.store.is_shared() && self.reload_if_stale(&mut game).await => {
                    apply(&mut game, side, &action, now)?
                }
                Err(refused) => return Err(refused.into()),
            };
            self.commit(&mut game, &slot, change, Some(before)).await?
        };
        self.follow_up(&slot).await;
        Ok(state)
    }

    /// Stores `change` and announces the new state, which it returns serialised (once
    /// for the watchers and the caller). If the store refuses a move, the move is taken
    /// back in memory and nothing is announced.
    async fn commit(
        &self,
        game: &mut LiveGame,
        slot: &Slot,
        change: Change,
        before: Option<crate::live::Snapshot>,
    ) -> Result<Utf8Bytes, ApiError> {
        let now = Instant::now();
        let stored = match &change {
            Change::Moved {
                ply,
                record,
                ended: None,
            } => self.store.append_move(&game.id, *ply, record).await,
            // The final move and the result: one transaction, never one without the other.
            Change::Moved {
                ply,
                record,
                ended: Some(outcome),
            } => {
                let end = game_end(outcome, game.stored_clocks(now));
                self.store
                    .append_final_move(&game.id, *ply, record, &end)
                    .await
            }
            Change::TookBack { keep } => {
                self.store
                    .take_back(&game.id, *keep, game.stored_clocks(now))
                    .await
            }
            Change::Ended(outcome) => {
                self.store
                    .finish_game(&game.id, &game_end(outcome, game.stored_clocks(now)))
                    .await
            }
            Change::Offer => match game.offers_to_store() {
                Some([draw, takeback]) => self.store.set_offers(&game.id, draw, takeback).await,
                None => Ok(()),
            },
        };
        if let Err(e) = stored {
            // The memory must not run ahead of the database: reload the game as
            // stored (another process may have changed it), or at least take the
            // refused move back.
            let reloaded = self.reload(game).await;
            if !reloaded
                && let Some(before) = before
                && matches!(change, Change::Moved { .. })
            {
                game.unplay(before);
            }
            return Err(ApiError::storage(&e));
        }
        // Offers a move or takeback withdrew (or made) are stored after it: they are
        // negotiation, not record, and a crash between the two loses only an offer.
        if let (Change::Offer, Some(offers)) = (&change, game.offers_to_store()) {
            game.offers_stored(offers);
        } else if let Some(offers) = game.offers_to_store() {
            match self.store.set_offers(&game.id, offers[0], offers[1]).await {
                Ok(()) => game.offers_stored(offers),
                Err(e) => {
                    tracing::warn!(game = %game.id, error = %e, "the offers could not be stored")
                }
            }
        }
        // Every stored change, and only a stored one, is a new version for clients: on
        // a shared database the stored one, which every process reads alike.
        game.version = match self.store.game_version(&game.id).await {
            Ok(Some(version)) => version,
            _ => game.version + 1,
        };
        let state = serialise(&game.view(Instant::now()))?;
        if slot.updates.receiver_count() > 0 {
            // A watcher leaving meanwhile is not an error.
            let _ = slot.updates.send(state.clone());
        }
        if game.ended.is_some() {
            // A finished game never changes again: it is read from the store when asked
            // for, so that memory holds only the games in progress. Watchers keep their
            // slot until they leave.
            self.forget(&game.id);
        }
        Ok(state)
    }

    /// On a shared database: reloads `game` if the stored version is not the one held
    /// here; returns whether it did.
    async fn reload_if_stale(&self, game: &mut LiveGame) -> bool {
        match self.store.game_version(&game.id).await {
            Ok(Some(stored)) if stored != game.version => self.reload(game).await,
            _ => false,
        }
    }

    /// Replaces `game` with its record as stored now, keeping its version going on
    /// (and advancing it when the record moved on); returns whether it could.
    async fn reload(&self, game: &mut LiveGame) -> bool {
        let reloaded = match self.store.game(&game.id).await {
            Ok(Some(record)) => LiveGame::from_record(record).ok(),
            _ => None,
        };
        let Some(reloaded) = reloaded else {
            return false;
        };
        // Stops a search of the old state and outdates its timers.
        game.bump();
        let (version, epoch, claimed) = (game.version, game.epoch, game.claimed);
        *game = reloaded;
        game.claimed = claimed;
        // On a shared database the record's version is every process's.
        if !self.store.is_shared() {
            game.version = version;
        }
        game.epoch = epoch;
        true
    }

    /// Another process changed game `id`: a copy held here is reloaded and its
    /// watchers get the new state; if this process looks after the game, its clock
    /// and computer go on from the new state.
    async fn changed_elsewhere(self: &Arc<Self>, id: &str) {
        let Some(slot) = self.loaded(id) else {
            return;
        };
        {
            let mut game = slot.game.lock().await;
            if !self.reload(&mut game).await {
                return;
            }
            if let Ok(state) = serialise(&game.view(Instant::now()))
                && slot.updates.receiver_count() > 0
            {
                let _ = slot.updates.send(state);
            }
            if game.ended.is_some() {
                self.forget(&game.id);
                return;
            }
        }
        self.follow_up(&slot).await;
    }

    /// The game `id` if it is held in memory.
    fn loaded(&self, id: &str) -> Option<Arc<Slot>> {
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    /// Every game held in memory.
    fn loaded_ids(&self) -> Vec<String> {
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    /// Lets go of a finished game: it is read from the store when asked for.
    fn forget(&self, id: &str) {
        self.slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        self.release_computer_game(id);
    }

    /// After a change: starts the computer if it is to move, and a timer for the flag
    /// of the side to move.
    fn follow_up(self: &Arc<Self>, slot: &Arc<Slot>) -> BoxFuture {
        let games = Arc::clone(self);
        let slot = Arc::clone(slot);
        Box::pin(async move { games.start_follow_ups(&slot).await })
    }

    async fn start_follow_ups(self: &Arc<Self>, slot: &Arc<Slot>) {
        let mut game = slot.game.lock().await;
        if game.ended.is_some() {
            return;
        }
        // On a shared database one process looks after each game: the others
        // neither think for its computer nor watch its clock. A claim lasts as long
        // as this process lives, so it is asked for once.
        if !game.needs_looking_after() {
            return;
        }
        if !game.claimed {
            match self.store.claim_game(&game.id).await {
                Ok(true) => game.claimed = true,
                Ok(false) => return,
                Err(e) => {
                    tracing::warn!(game = %game.id, error = %e, "cannot claim a game; another process will");
                    return;
                }
            }
        }
        let turn = game.record.turn();
        let now = Instant::now();
        let computer = game.computer_level(turn);
        if computer.is_none() {
            self.start_flag_timer(slot, &game);
        }
        if let Some(level) = computer
            && game.thinking.is_none()
        {
            let stop = Arc::new(AtomicBool::new(false));
            game.thinking = Some(Arc::clone(&stop));
            let job = ComputerJob {
                position: game.record.position().clone(),
                history: game.record.history().to_vec(),
                level,
                limits: computer_limits(&game, turn, level, now),
                epoch: game.epoch,
                person_plays: game.person_plays(),
                stop,
            };
            // Its clock starts when its search does (`computer_move`).
            game.pause_clock(now);
            let games = Arc::clone(self);
            let slot = Arc::clone(slot);
            tokio::spawn(async move { games.computer_move(&slot, job).await });
        }
    }

    /// A timer that ends the game when the side to move's flag falls.
    fn start_flag_timer(self: &Arc<Self>, slot: &Arc<Slot>, game: &LiveGame) {
        let turn = game.record.turn();
        if let Some(deadline) = game.clock.as_ref().and_then(|c| c.deadline(turn)) {
            let games = Arc::clone(self);
            let slot = Arc::clone(slot);
            let epoch = game.epoch;
            tokio::spawn(async move {
                tokio::time::sleep_until(deadline.into()).await;
                games.flag_fell(&slot, epoch).await;
            });
        }
    }

    async fn flag_fell(self: &Arc<Self>, slot: &Arc<Slot>, epoch: u64) {
        {
            let mut game = slot.game.lock().await;
            if game.epoch != epoch {
                return;
            }
            let Some(change) = game.check_flag(Instant::now()) else {
                return;
            };
            if let Err(e) = self.commit(&mut game, slot, change, None).await {
                tracing::error!(game = %game.id, error = %e, "a flag fall could not be stored");
            }
        }
        self.follow_up(slot).await;
    }

    async fn computer_move(self: &Arc<Self>, slot: &Arc<Slot>, job: ComputerJob) {
        let epoch = job.epoch;
        let started = {
            let (games, slot) = (Arc::clone(self), Arc::clone(slot));
            move |waited: Duration| -> BoxFuture {
                Box::pin(async move {
                    let mut game = slot.game.lock().await;
                    if game.epoch == epoch {
                        if waited > Duration::from_millis(100) {
                            tracing::debug!(game = %game.id, waited_ms = waited.as_millis(), "a search waited for a worker");
                        }
                        game.resume_clock(Instant::now());
                        games.start_flag_timer(&slot, &game);
                    }
                })
            }
        };
        let Some((best, score)) = self.engines.think(job, started).await else {
            return;
        };
        {
            let mut game = slot.game.lock().await;
            if game.epoch != epoch {
                return;
            }
            game.thinking = None;
            let now = Instant::now();
            if let Some(change) = game.check_flag(now) {
                if let Err(e) = self.commit(&mut game, slot, change, None).await {
                    tracing::error!(game = %game.id, error = %e, "a flag fall could not be stored");
                }
                return;
            }
            let side = game.record.turn();
            // A standing draw offer is answered now, from the search's evaluation, by
            // the rule the terminal's computer follows too; its move declines it.
            if game.draw_offered_by() == Some(side.other())
                && tablero_games::accepts_draw(score, game.record.plies())
            {
                match game.answer_draw(side, true, now) {
                    Ok(change) => {
                        if let Err(e) = self.commit(&mut game, slot, change, None).await {
                            tracing::error!(game = %game.id, error = %e, "a draw could not be stored");
                        }
                    }
                    Err(e) => {
                        tracing::error!(game = %game.id, error = %e, "the computer's draw was refused");
                    }
                }
                return;
            }
            let before = game.snapshot();
            match game.play(side, &best, now) {
                Ok(change) => {
                    if let Err(e) = self.commit(&mut game, slot, change, Some(before)).await {
                        tracing::error!(game = %game.id, error = %e, "a computer move could not be stored");
                        return;
                    }
                }
                Err(e) => {
                    tracing::error!(game = %game.id, error = %e, "the computer chose a refused move");
                    return;
                }
            }
        }
        self.follow_up(slot).await;
    }
}

/// What a seat's action changes in `game`, or why it is refused.
fn apply(
    game: &mut LiveGame,
    side: Side,
    action: &Action,
    now: Instant,
) -> Result<Change, crate::live::LiveError> {
    match action {
        Action::Move(text) => game.play(side, text, now),
        Action::TakeBack => game.take_back(side, now),
        Action::AcceptTakeBack => game.answer_take_back(side, true, now),
        Action::DeclineTakeBack => game.answer_take_back(side, false, now),
        Action::Resign => game.resign(side, now),
        Action::OfferDraw => game.offer_draw(side, now),
        Action::AcceptDraw => game.answer_draw(side, true, now),
        Action::DeclineDraw => game.answer_draw(side, false, now),
        Action::ClaimDraw => game.claim_draw(side, now),
    }
}

/// Passes the changes other processes make on to the games held here, until the
/// registry is gone. After a gap in the announcements every game held is reloaded.
async fn follow_others(
    registry: std::sync::Weak<GameRegistry>,
    mut events: broadcast::Receiver<tablero_store::StoreEvent>,
) {
    loop {
        let event = events.recv().await;
        let Some(registry) = registry.upgrade() else {
            return;
        };
        let ids = match event {
            Ok(tablero_store::StoreEvent::GameChanged { id }) => vec![id],
            Ok(tablero_store::StoreEvent::Missed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                registry.loaded_ids()
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        for id in ids {
            registry.changed_elsewhere(&id).await;
        }
    }
}

/// How often a process looks for games whose process is gone.
const LOOK_AFTER_EVERY: Duration = Duration::from_secs(1);

/// Takes over the games in progress whose process is gone (their clocks and computer
/// seats need one), until the registry is gone.
async fn look_after(registry: std::sync::Weak<GameRegistry>) {
    let mut tick = tokio::time::interval(LOOK_AFTER_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(registry) = registry.upgrade() else {
            return;
        };
        loop {
            let ids = match registry.store.claim_orphans().await {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot look for games to take over");
                    break;
                }
            };
            if ids.is_empty() {
                break;
            }
            tracing::info!(games = ids.len(), "taking over games whose process is gone");
            for id in ids {
                match registry.slot(&id).await {
                    Ok(slot) => registry.follow_up(&slot).await,
                    Err(e) => tracing::error!(game = %id, error = %e, "cannot take over a game"),
                }
            }
        }
    }
}

/// A search to run for a computer seat.
#[derive(Debug)]
struct ComputerJob {
    position: tablero_games::AnyPosition,
    history: Vec<tablero_games::AnyPosition>,
    level: Level,
    limits: Limits,
    epoch: u64,
    /// A person sits on one side: the search goes in the people's queue.
    person_plays: bool,
    stop: Arc<AtomicBool>,
}

/// The computer's time: its clock if the game has one, else a cap per move (levels
/// 1–6 are depth-limited and answer well within it).
fn computer_limits(game: &LiveGame, turn: Side, level: Level, now: Instant) -> Limits {
    const OVERHEAD: Duration = Duration::from_millis(50);
    match &game.clock {
        Some(clock) => {
            let remaining = clock.remaining_at(turn, now);
            let (remaining, increment, moves_to_go) = match clock.settings.kind {
                ClockKind::Fischer => (
                    remaining[turn.index()],
                    Duration::from_millis(clock.settings.increment_ms),
                    None,
                ),
                // One clock for both: budget as if half of it were ours, over a long game.
                ClockKind::Game => (remaining[0] / 2, Duration::ZERO, Some(40)),
            };
            Limits {
                clock: Some(Clock {
                    remaining,
                    increment,
                    moves_to_go,
                }),
                overhead: OVERHEAD,
                ..Limits::default()
            }
        }
        None => Limits {
            movetime: Some(Duration::from_millis(if level.get() >= 10 {
                2_000
            } else {
                1_000
            })),
            ..Limits::default()
        },
    }
}

/// Engines for the computer seats, each search on a blocking thread, with hash tables
/// kept between searches. Two queues: searches for games with a person seat have
/// their own workers and never wait behind games the computer plays against itself,
/// which share fewer workers among them.
#[derive(Debug)]
struct EnginePool {
    people: Semaphore,
    computers: Semaphore,
    idle: SyncMutex<Vec<AnyEngine>>,
}

/// Hash table per pooled engine, in MiB.
const ENGINE_HASH_MB: usize = 16;

impl EnginePool {
    fn new(threads: usize, computer_threads: usize) -> EnginePool {
        EnginePool {
            people: Semaphore::new(threads.max(1)),
            computers: Semaphore::new(computer_threads.max(1)),
            idle: SyncMutex::new(Vec::new()),
        }
    }

    /// The move the computer chooses with its evaluation (centipawns for the side to
    /// move), or `None` if the search was stopped or failed. `started` is told how
    /// long the search waited for a worker, before it starts.
    async fn think(
        &self,
        job: ComputerJob,
        started: impl FnOnce(Duration) -> BoxFuture + Send,
    ) -> Option<(String, i32)> {
        let queued = Instant::now();
        let queue = if job.person_plays {
            &self.people
        } else {
            &self.computers
        };
        let _permit = queue.acquire().await.ok()?;
        if job.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        // The clock does not run while the search waits for a worker.
        started(queued.elapsed()).await;
        let engine = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop();
        let (engine, best) = tokio::task::spawn_blocking(move || {
            // An engine of another game kind is dropped and replaced.
            let engine = match engine {
                Some(e) if e.plays(&job.position) => e,
                _ => AnyEngine::for_game(&job.position, ENGINE_HASH_MB),
            };
            let request = SearchRequest {
                limits: job.limits,
                level: Some(job.level),
                seed: rand::rng().random(),
                ..SearchRequest::default()
            };
            let result = engine.search(&job.position, &job.history, &request, &job.stop, |_| {});
            let stopped = job.stop.load(std::sync::atomic::Ordering::Relaxed);
            let score = result.info.lines.first().map_or(0, |line| line.score);
            (
                engine,
                if stopped {
                    None
                } else {
                    result.best.map(|best| (best, score))
                },
            )
        })
        .await
        .ok()?;
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(engine);
        best
    }
}

/// Runs a change on its own task: a client that hangs up drops its request's future,
/// and a change cut there would leave memory changed and the store's answer unheard.
async fn to_the_end<T: Send + 'static>(
    change: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(change).await.map_err(|e| {
        tracing::error!(error = %e, "a change failed");
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "the change failed",
        )
    })?
}

/// A game's end as the store keeps it.
fn game_end(outcome: &tablero_core::Outcome, remaining_ms: [Option<u64>; 2]) -> GameEnd {
    GameEnd {
        winner: outcome.winner(),
        reason: outcome.reason().id().to_owned(),
        remaining_ms,
    }
}

/// A new game id: 12 characters from 62, hard to guess.
fn new_id() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut rng = rand::rng();
    (0..12)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// A seat token: 128 random bits in hex.
pub(crate) fn new_token() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The state as JSON text.
pub(crate) fn serialise(view: &GameView) -> Result<Utf8Bytes, ApiError> {
    // Sized for a typical state, so that writing it rarely grows (and copies) the buffer.
    let mut text = Vec::with_capacity(16 * 1024);
    serde_json::to_writer(&mut text, view)
        .map_err(|e| e.to_string())
        .and_then(|()| String::from_utf8(text).map_err(|e| e.to_string()))
        .map(Utf8Bytes::from)
        .map_err(|e| {
            tracing::error!(error = %e, "a state could not be serialised");
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "the state could not be serialised",
            )
        })
}
