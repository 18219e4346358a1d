//! The engine side of a UCI conversation: state, commands, the search thread.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::Sender;

use tablero_engine::score::mate_in_moves;

use tablero_core::Side;
pub use tablero_games::Flow;
use tablero_games::{
    AnyPosition, Clock, Hold, Limits, ProtocolEngine, SearchMode, SearchRequest, TextInfo,
    TextResult, Variant,
};

use crate::command::{Command, Go, Start};
use crate::options::{Effect, Options};

/// One UCI conversation: the options, the game kind, the position with the positions
/// before it, and the search running in its own thread.
///
/// Every response is one line (without its newline) sent to the channel given to
/// [`Session::new`], from the session's thread or from the search thread, in the
/// order the GUI must see them. Nothing a GUI sends makes it panic or stop: a line
/// it cannot act on is answered with `info string <why>` and otherwise ignored.
#[derive(Debug)]
pub struct Session {
    out: Sender<String>,
    options: Options,
    debug: bool,
    game: AnyPosition,
    history: Vec<AnyPosition>,
    engine: ProtocolEngine,
}

impl Session {
    /// A session in the standard chess start position with the default options,
    /// answering through `out`.
    #[must_use]
    pub fn new(out: Sender<String>) -> Session {
        let options = Options::default();
        let game = start_position(&options);
        Session {
            out,
            options,
            debug: false,
            game,
            history: Vec::new(),
            engine: ProtocolEngine::default(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &AnyPosition {
        &self.game
    }

    /// Parses and handles one line; a line that is not a command is answered with
    /// `info string <why>`.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match line.parse::<Command>() {
            Ok(command) => {
                let skipped = Command::skipped_prefix(line);
                if !skipped.is_empty() {
                    self.info_string(&format!("ignored unknown words {:?}", skipped.join(" ")));
                }
                self.handle(command)
            }
            Err(e) => {
                self.info_string(&format!("ignored {:?}: {e}", line.trim()));
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                // The hash table is allocated here, where UCI expects slow set-up.
                self.engine.prepare(&self.game, self.options.hash_mb);
                self.send("readyok".to_owned());
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(go) => self.go(&go),
            Command::Stop => self.engine.finish(),
            Command::PonderHit => self.engine.ponder_hit(),
            Command::Quit => {
                self.engine.finish();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The end of the GUI's input: a search that ends by itself is let finish so
    /// that `bestmove` is written (a script piping commands gets its answer); an
    /// infinite or pondering search is stopped.
    pub fn end_of_input(&mut self) {
        self.engine.end_of_input();
    }

    fn send(&self, line: String) {
        // The receiver is gone only when the program is shutting down: nothing to tell.
        let _ = self.out.send(line);
    }

    fn info_string(&self, text: &str) {
        // An answer quoting a huge line would be a burden, not a help.
        const LONGEST: usize = 300;
        match text.char_indices().nth(LONGEST) {
            Some((cut, _)) => self.send(format!("info string {}...", &text[..cut])),
            None => self.send(format!("info string {text}")),
        }
    }

    fn uci(&self) {
        self.send(format!("id name tablero {}", env!("CARGO_PKG_VERSION")));
        self.send("id author the tablero authors".to_owned());
        for line in Options::announce() {
            self.send(line);
        }
        self.send("uciok".to_owned());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::Resize) => self.engine.resize(),
            Ok(Effect::ClearHash) => self.engine.new_game(),
            Ok(Effect::Evaluation) => self.engine.set_evaluation(self.options.evaluation),
            Ok(Effect::NewGameKind) => {
                self.game = start_position(&self.options);
                self.history.clear();
            }
            Err(why) => self.info_string(&format!("ignored setoption: {why}")),
        }
        if self.debug {
            self.info_string(&format!("options now {:?}", self.options));
        }
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) {
        let game = match start {
            Start::StartPos => start_position(&self.options),
            Start::Fen(fen) => {
                match AnyPosition::of(self.options.variant, variant_of(&self.options), Some(fen)) {
                    Ok(game) => game,
                    Err(e) => {
                        self.info_string(&format!(
                            "ignored position: {e}; the position stays {}",
                            self.game.position_text()
                        ));
                        return;
                    }
                }
            }
        };
        let mut game = game;
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let before = game.clone();
            if let Err(e) = game.play_text(text) {
                // A GUI that sends a move we refuse is out of step with us: the
                // position up to the last legal move is the best guess of what it means.
                self.info_string(&format!(
                    "move {} {text:?} is illegal or malformed ({e}); position kept before it",
                    i + 1
                ));
                break;
            }
            history.push(before);
        }
        self.game = game;
        self.history = history;
    }

    fn go(&mut self, go: &Go) {
        if !go.ignored.is_empty() {
            self.info_string(&format!(
                "go: ignored unknown words {:?}",
                go.ignored.join(" ")
            ));
        }
        if self.engine.is_running() {
            self.info_string("go during a search: the previous search is stopped first");
        }
        let white_to_move = self.game.turn() == Side::White;
        let (remaining, increment) = if white_to_move {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        let clock = remaining.map(|remaining| Clock {
            remaining,
            increment: increment.unwrap_or_default(),
            moves_to_go: go.moves_to_go,
        });
        let mate_depth = go.mate.map(|m| m.saturating_mul(2).saturating_add(1));
        let mut limits = Limits {
            depth: match (go.depth, mate_depth) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            nodes: go.nodes,
            movetime: go.movetime,
            clock,
            overhead: self.options.overhead,
        };
        let mut mode = if go.ponder {
            SearchMode::ponder(&mut limits)
        } else {
            SearchMode::default()
        };
        // UCI: no `bestmove` before `stop` in `go infinite`, nor while pondering, even
        // when the search is over.
        mode.hold = match (go.infinite, go.ponder) {
            (true, _) => Hold::UntilStop,
            (false, true) => Hold::UntilPonderHit,
            (false, false) => Hold::Never,
        };
        if go.infinite {
            limits.movetime = None;
            limits.clock = None;
        }
        let mut root_moves = Vec::new();
        for text in &go.search_moves {
            let mut probe = self.game.clone();
            match probe.play_text(text) {
                Ok(()) => root_moves.push(text.clone()),
                Err(e) => self.info_string(&format!("searchmoves: ignored {text:?} ({e})")),
            }
        }
        let level = self.options.level();
        let request = SearchRequest {
            limits,
            level,
            multipv: self.options.multipv,
            threads: self.options.threads,
            root_moves,
            seed: tablero_games::fresh_seed(),
        };
        let info_out = self.out.clone();
        let mate = go.mate;
        let on_info = move |info: &TextInfo| {
            for line in info_lines(info) {
                let _ = info_out.send(line);
            }
            if mated_within(info, mate) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let out = self.out.clone();
        let answer = move |result: TextResult| {
            let _ = out.send(bestmove_line(&result));
        };
        self.engine.start(
            &self.game,
            self.history.clone(),
            self.options.hash_mb,
            request,
            mode,
            on_info,
            answer,
        );
    }
}

/// Whether the best line of `info` mates within the `mate` moves asked for by
/// `go mate`.
fn mated_within(info: &TextInfo, mate: Option<u32>) -> bool {
    mate.is_some_and(|wanted| {
        info.lines.first().is_some_and(|line| {
            mate_in_moves(line.score).is_some_and(|n| n > 0 && n.unsigned_abs() <= wanted)
        })
    })
}

/// The `bestmove` line of a result.
fn bestmove_line(result: &TextResult) -> String {
    match (&result.best, &result.ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        // What python-chess, cutechess and Stockfish's own tools read as "no move".
        (None, _) => "bestmove 0000".to_owned(),
    }
}

/// The `info` lines of one report, one per principal variation.
#[must_use]
pub fn info_lines(info: &TextInfo) -> Vec<String> {
    info.lines
        .iter()
        .map(|line| {
            let score = match mate_in_moves(line.score) {
                Some(moves) => format!("mate {moves}"),
                None => format!("cp {}", line.score),
            };
            let mut text = format!(
                "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {}",
                info.depth,
                info.seldepth,
                line.multipv,
                info.nodes,
                info.nps,
                info.hashfull,
                info.elapsed.as_millis(),
            );
            if !line.pv.is_empty() {
                text.push_str(" pv ");
                text.push_str(&line.pv.join(" "));
            }
            text
        })
        .collect()
}

/// The game's variant for the options: Chess960 when `UCI_Chess960` is on (every
/// other UCI game has only its standard rules).
fn variant_of(options: &Options) -> Variant {
    if options.chess960 && Variant::Chess960.is_of(options.variant) {
        Variant::Chess960
    } else {
        Variant::Standard
    }
}

fn start_position(options: &Options) -> AnyPosition {
    AnyPosition::of(options.variant, variant_of(options), None)
        .expect("every UCI game has a start position in its standard variant")
}

/// Runs a UCI conversation: commands from `input`, one a line, answers to `output`
/// (flushed line by line), until `quit` or the end of the input.
///
/// # Errors
///
/// Reading `input` or writing `output` failed.
pub fn run(input: impl BufRead, output: impl Write + Send) -> std::io::Result<()> {
    tablero_games::converse(
        input,
        output,
        Session::new,
        |session, line| session.handle_line(line) == Flow::Quit,
        |mut session| session.end_of_input(),
    )
}
