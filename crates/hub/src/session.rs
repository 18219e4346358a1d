//! The engine side of a Hub conversation: state, commands, the search thread.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::Sender;
use std::time::Duration;

use tablero_draughts::{Draughts, HubMove, Position};
use tablero_engine::score::{MATE, is_mate_score};
pub use tablero_games::Flow;
use tablero_games::{
    AnyPosition, Clock, Limits, ProtocolEngine, SearchMode, SearchRequest, TextInfo, TextResult,
};

use crate::command::{Command, LevelSpec, Mode, quote};
use crate::params::{Effect, Params};

/// Time kept back from every clock budget for the move to reach the GUI.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// One Hub conversation: the parameters, the limits of `level`, the position with
/// the positions before it, and the search running in its own thread.
///
/// Every response is one line (without its newline) sent to the channel given to
/// [`Session::new`], from the session's thread or from the search thread. Nothing a
/// GUI sends makes it panic or stop: a line it cannot act on is answered with
/// `error message="<why>"` and otherwise ignored.
#[derive(Debug)]
pub struct Session {
    out: Sender<String>,
    params: Params,
    level: LevelSpec,
    position: Draughts,
    history: Vec<Draughts>,
    engine: ProtocolEngine,
}

impl Session {
    /// A session in the international start position with the default parameters,
    /// answering through `out`.
    #[must_use]
    pub fn new(out: Sender<String>) -> Session {
        let params = Params::default();
        Session {
            out,
            position: Draughts::new(params.variant),
            params,
            level: LevelSpec::default(),
            history: Vec::new(),
            engine: ProtocolEngine::default(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Draughts {
        &self.position
    }

    /// Parses and handles one line; a line that is not a command is answered with
    /// `error message="<why>"`.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match line.parse::<Command>() {
            Ok(command) => self.handle(command),
            Err(e) => {
                self.error(&format!("ignored '{}': {e}", shorten(line.trim())));
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Hub => self.hub(),
            Command::SetParam { name, value } => self.set_param(&name, value.as_deref()),
            Command::Init => {
                // The hash table is allocated here, where Hub expects slow set-up.
                let game = AnyPosition::from(self.position.clone());
                self.engine.prepare(&game, self.params.hash_mb);
                self.send("ready".to_owned());
            }
            Command::NewGame => self.engine.new_game(),
            Command::Pos { position, moves } => self.set_position(position.as_deref(), &moves),
            Command::Level(spec) => self.level = spec,
            Command::Time { left, inc } => {
                self.level.time = Some(left);
                if inc.is_some() {
                    self.level.inc = inc;
                }
            }
            Command::Go(mode) => self.go(mode),
            Command::PonderHit => self.engine.ponder_hit(),
            Command::Stop => self.engine.finish(),
            Command::Ping => self.send("pong".to_owned()),
            Command::Quit => {
                self.engine.finish();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The end of the GUI's input: a search that ends by itself is let finish so
    /// that `done` is written (a script piping commands gets its answer); a search
    /// without a limit, or pondering, is stopped.
    pub fn end_of_input(&mut self) {
        self.engine.end_of_input();
    }

    fn send(&self, line: String) {
        // The receiver is gone only when the program is shutting down: nothing to tell.
        let _ = self.out.send(line);
    }

    fn error(&self, text: &str) {
        self.send(format!("error message={}", quote(text)));
    }

    fn hub(&self) {
        self.send(format!(
            "id name=tablero version={} author={}",
            quote(env!("CARGO_PKG_VERSION")),
            quote("the tablero authors"),
        ));
        for line in Params::announce() {
            self.send(line);
        }
        self.send("wait".to_owned());
    }

    fn set_param(&mut self, name: &str, value: Option<&str>) {
        match self.params.set(name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::Resize) => self.engine.resize(),
            Ok(Effect::Evaluation) => self.engine.set_evaluation(self.params.evaluation),
            Ok(Effect::NewRuleSet) => {
                self.position = Draughts::new(self.params.variant);
                self.history.clear();
                self.engine.forget_if_idle();
            }
            Err(why) => self.error(&format!("ignored set-param: {why}")),
        }
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[String]) {
        let rule_set = self.params.variant;
        let mut position = match text {
            None => Draughts::new(rule_set),
            Some(text) => match Draughts::from_hub_position(text, rule_set) {
                Ok(position) => position,
                Err(e) => {
                    self.error(&format!(
                        "ignored pos: {e}; the position stays {}",
                        self.position.hub_position()
                    ));
                    return;
                }
            },
        };
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match text.parse::<HubMove>().and_then(|h| h.to_move(&position)) {
                Ok(m) => {
                    history.push(position.clone());
                    position.play_unchecked(m);
                }
                Err(e) => {
                    // A GUI that sends a move we refuse is out of step with us: the
                    // position up to the last legal move is the best guess of what it
                    // means.
                    self.error(&format!(
                        "move {} {text:?} refused ({e}); position kept before it",
                        i + 1
                    ));
                    break;
                }
            }
        }
        self.position = position;
        self.history = history;
    }

    fn go(&mut self, mode: Mode) {
        if self.engine.is_running() {
            self.error("go during a search: the previous search is stopped first");
        }
        let spec = &self.level;
        let clock = spec.time.map(|time| {
            let inc = spec.inc.unwrap_or_default();
            // Hub adds the increment before the move: this move may use it already.
            Clock {
                remaining: time + inc,
                increment: inc,
                moves_to_go: spec.moves,
            }
        });
        let mut limits = Limits {
            depth: spec.depth,
            nodes: spec.nodes,
            movetime: spec.move_time,
            clock,
            overhead: MOVE_OVERHEAD,
        };
        if spec.infinite {
            limits.movetime = None;
            limits.clock = None;
        }
        // Hub answers as soon as the search is over, pondering or not.
        let search_mode = if mode == Mode::Ponder {
            SearchMode::ponder(&mut limits)
        } else {
            SearchMode::default()
        };
        let level = match mode {
            Mode::Analyze => None,
            Mode::Think | Mode::Ponder => self.params.level(),
        };
        let request = SearchRequest {
            limits,
            level,
            multipv: 1,
            threads: self.params.threads,
            root_moves: Vec::new(),
            seed: tablero_games::fresh_seed(),
        };
        let position = self.position.clone();
        let history = self
            .history
            .iter()
            .cloned()
            .map(AnyPosition::from)
            .collect();
        let (info_out, info_position) = (self.out.clone(), position.clone());
        let on_info = move |info: &TextInfo| {
            if let Some(line) = info_line(&info_position, info) {
                let _ = info_out.send(line);
            }
            ControlFlow::Continue(())
        };
        let out = self.out.clone();
        let answer = move |result: TextResult| {
            let _ = out.send(done_line(&position, &result));
        };
        self.engine.start(
            &AnyPosition::from(self.position.clone()),
            history,
            self.params.hash_mb,
            request,
            search_mode,
            on_info,
            answer,
        );
    }
}

/// `text` cut to a length fit for an answer.
fn shorten(text: &str) -> String {
    const LONGEST: usize = 200;
    match text.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The `done` line of a result: the move and the expected reply in Hub text.
fn done_line(position: &Draughts, result: &TextResult) -> String {
    let best = result
        .best
        .as_deref()
        .and_then(|text| position.parse_move(text).ok());
    match best {
        Some(m) => {
            let mut line = format!("done move={}", HubMove::from_move(position, m));
            let mut after = position.clone();
            after.play_unchecked(m);
            let ponder = result
                .ponder
                .as_deref()
                .and_then(|text| after.parse_move(text).ok());
            if let Some(reply) = ponder {
                line.push_str(&format!(" ponder={}", HubMove::from_move(&after, reply)));
            }
            line
        }
        // Hub GUIs never ask about a finished game; an answer is owed anyway.
        None => "done".to_owned(),
    }
}

/// The `info` line of a report: depth, score in men (a win in n plies is
/// `100 - n/100`, as Scan writes it), nodes, time in seconds, speed in millions of
/// nodes per second and the principal variation in Hub moves; `None` without a line.
#[must_use]
pub fn info_line(position: &Draughts, info: &TextInfo) -> Option<String> {
    let line = info.lines.first()?;
    let mut at = position.clone();
    let mut pv = Vec::with_capacity(line.pv.len());
    for text in &line.pv {
        let Ok(m) = at.parse_move(text) else { break };
        pv.push(HubMove::from_move(&at, m).to_string());
        at.play_unchecked(m);
    }
    let mut text = format!(
        "info depth={} score={} nodes={} time={:.3} nps={:.3}",
        info.depth,
        hub_score(line.score),
        info.nodes,
        info.elapsed.as_secs_f64(),
        info.nps as f64 / 1e6,
    );
    if !pv.is_empty() {
        text.push_str(&format!(" pv={}", quote(&pv.join(" "))));
    }
    Some(text)
}

/// A score in men with two decimals; a win in n plies is `100 - n/100` (at most 999
/// plies), a loss its negative, other scores stay within ±89.99.
fn hub_score(score: i32) -> String {
    let hundredths = if is_mate_score(score) {
        let plies = (MATE - score.abs()).clamp(0, 999);
        (10_000 - plies) * score.signum()
    } else {
        score.clamp(-8_999, 8_999)
    };
    let sign = if hundredths < 0 { "-" } else { "" };
    let abs = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Runs a Hub conversation: commands from `input`, one a line, answers to `output`
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_men_and_wins_as_scan_writes_them() {
        assert_eq!(hub_score(0), "0.00");
        assert_eq!(hub_score(12), "0.12");
        assert_eq!(hub_score(-1), "-0.01");
        assert_eq!(hub_score(-250), "-2.50");
        assert_eq!(hub_score(20_000), "89.99");
        assert_eq!(hub_score(MATE - 3), "99.97");
        assert_eq!(hub_score(-(MATE - 4)), "-99.96");
        assert_eq!(hub_score(MATE - 999), "90.01");
    }
}
