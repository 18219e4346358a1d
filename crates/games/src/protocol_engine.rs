//! The engine side that the text protocols (UCI, Hub) share: one engine kept from
//! search to search for its hash table, and at most one search running on its own
//! thread. Each protocol's session keeps only its own commands, options and answer
//! formats.

use std::ops::ControlFlow;
use std::sync::Arc;

use crate::{
    AnyEngine, AnyPosition, Evaluation, SearchMode, SearchRequest, SearchThread, TextInfo,
    TextResult,
};

/// Whether a protocol conversation goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received: the search is stopped and the session is done.
    Quit,
}

/// A protocol session's engine and its running search.
///
/// ```
/// use std::ops::ControlFlow;
/// use std::sync::mpsc::channel;
/// use tablero_games::{AnyPosition, Limits, ProtocolEngine, SearchMode, SearchRequest};
///
/// let game = AnyPosition::new("chess", None, None).unwrap();
/// let mut engine = ProtocolEngine::default();
/// let request = SearchRequest { limits: Limits { depth: Some(2), ..Limits::default() }, ..SearchRequest::default() };
/// let (out, answers) = channel();
/// engine.start(&game, Vec::new(), 1, request, SearchMode::default(), |_| ControlFlow::Continue(()), move |r| out.send(r.best).unwrap());
/// engine.finish();
/// assert!(answers.recv().unwrap().is_some());
/// ```
#[derive(Debug, Default)]
pub struct ProtocolEngine {
    engine: Option<Kept>,
    search: Option<SearchThread>,
    evaluation: Evaluation,
}

/// The engine, with what it was built for.
#[derive(Debug)]
struct Kept {
    engine: Arc<AnyEngine>,
    game_id: &'static str,
    hash_mb: usize,
    evaluation: Evaluation,
}

impl ProtocolEngine {
    /// Builds the engine for `game` and `hash_mb` now unless a search is running:
    /// for the protocols' set-up commands (`isready`, `init`), where a GUI expects
    /// slow work such as allocating the hash table.
    pub fn prepare(&mut self, game: &AnyPosition, hash_mb: usize) {
        if self.search.is_none() {
            self.engine_for(game, hash_mb);
        }
    }

    /// The hash size changed: the engine is rebuilt at the next search or
    /// [`prepare`](Self::prepare), never under a running search.
    pub fn resize(&mut self) {
        if self.search.is_none() {
            self.engine = None;
        }
    }

    /// Evaluates with `evaluation` from the next search on (a running search keeps
    /// its engine).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// A new game (or a cleared hash): the search is finished and the engine forgets
    /// its tables and histories.
    pub fn new_game(&mut self) {
        self.finish();
        if let Some(kept) = &self.engine {
            kept.engine.new_game();
        }
    }

    /// The engine forgets its tables and histories unless a search is using them
    /// (a protocol's new game kind or rule set, which applies from the next search).
    pub fn forget_if_idle(&mut self) {
        if let (None, Some(kept)) = (&self.search, &self.engine) {
            kept.engine.new_game();
        }
    }

    /// Whether a search is still searching (not merely holding its answer).
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.search.as_ref().is_some_and(|s| !s.is_finished())
    }

    /// Starts searching `game` (reached through `history`) with the engine for its
    /// game and `hash_mb`, after stopping any search still running or holding its
    /// answer (which it then gives).
    #[expect(
        clippy::too_many_arguments,
        reason = "one call site per protocol, each argument its own"
    )]
    pub fn start(
        &mut self,
        game: &AnyPosition,
        history: Vec<AnyPosition>,
        hash_mb: usize,
        request: SearchRequest,
        mode: SearchMode,
        on_info: impl FnMut(&TextInfo) -> ControlFlow<()> + Send + 'static,
        answer: impl FnOnce(TextResult) + Send + 'static,
    ) {
        self.finish();
        let engine = self.engine_for(game, hash_mb);
        self.search = Some(SearchThread::spawn(
            engine,
            game.clone(),
            history,
            request,
            mode,
            on_info,
            answer,
        ));
    }

    /// The opponent played the pondered move.
    pub fn ponder_hit(&self) {
        if let Some(search) = &self.search {
            search.ponder_hit();
        }
    }

    /// Stops the search, if any, and waits until it has answered.
    pub fn finish(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop();
        }
    }

    /// The input ended: a search that ends by itself is let finish so that its
    /// answer is written (a script piping commands gets it); one without a limit,
    /// or pondering, is stopped.
    pub fn end_of_input(&mut self) {
        if let Some(search) = self.search.take() {
            search.finish();
        }
    }

    /// The engine for `game`'s kind and `hash_mb`, built when missing.
    fn engine_for(&mut self, game: &AnyPosition, hash_mb: usize) -> Arc<AnyEngine> {
        let game_id = game.game_id();
        match &self.engine {
            Some(kept)
                if kept.game_id == game_id
                    && kept.hash_mb == hash_mb
                    && kept.evaluation == self.evaluation =>
            {
                Arc::clone(&kept.engine)
            }
            _ => {
                // Drop the old table first: two large tables need not exist at once.
                self.engine = None;
                let engine = Arc::new(AnyEngine::with_evaluation(game, hash_mb, self.evaluation));
                self.engine = Some(Kept {
                    engine: Arc::clone(&engine),
                    game_id,
                    hash_mb,
                    evaluation: self.evaluation,
                });
                engine
            }
        }
    }
}
