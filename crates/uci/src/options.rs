//! The engine's UCI options: what `uci` announces and what `setoption` changes.

use std::time::Duration;

use tablero_games::{EngineProtocol, Evaluation, GameKind, Level, Variant};

/// Strength of each level for `UCI_LimitStrength`: the Elo a level is taken to play
/// at, level 1 first, on Stockfish 15.1's `UCI_Elo` scale at 10+0.1 in chess, with
/// the default evaluation (the network). Levels 3–9 were measured against Stockfish
/// limited near their strength: levels 3 and 4 130 games each (pooled), 5–9 100 each with chess's
/// own table (`tablero_engine::CHESS_LEVELS`), level
/// 10 against 2300 and 2450 (100 games each, both about 2350); levels 1–2 hang below
/// level 3 by the self-play ladder, as Stockfish's scale stops at 1350
/// (docs/engine.md "Levels and Elo"). With `UseNNUE false` the levels play weaker.
pub const LEVEL_ELO: [u32; 10] = [450, 900, 1320, 1630, 1770, 1890, 2000, 2120, 2240, 2350];

/// The level that plays at `elo`: the strongest whose [`LEVEL_ELO`] does not exceed
/// it (level 1 below the table).
///
/// ```
/// use tablero_uci::level_for_elo;
/// assert_eq!(level_for_elo(500).get(), 1);
/// assert_eq!(level_for_elo(1629).get(), 3);
/// assert_eq!(level_for_elo(1630).get(), 4);
/// assert_eq!(level_for_elo(3000).get(), 10);
/// ```
#[must_use]
pub fn level_for_elo(elo: u32) -> Level {
    let below = LEVEL_ELO.iter().filter(|&&e| e <= elo).count();
    let n = u8::try_from(below.max(1)).expect("the table has ten levels");
    Level::new(n).expect("1 to 10 is a level")
}

/// The games `UCI_Variant` offers, by their ids: those whose engines speak UCI
/// (draughts engines speak Hub).
fn uci_games() -> impl Iterator<Item = GameKind> {
    GameKind::ALL
        .into_iter()
        .filter(|kind| matches!(kind.info().engine_protocol, EngineProtocol::Uci { .. }))
}

/// The `UCI_Variant` values, as the option's line and its error list them.
fn uci_game_ids(separator: &str) -> String {
    uci_games()
        .map(GameKind::id)
        .collect::<Vec<_>>()
        .join(separator)
}

/// The options as set by the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) hash_mb: usize,
    pub(crate) threads: usize,
    pub(crate) multipv: usize,
    pub(crate) skill: Level,
    pub(crate) limit_strength: bool,
    pub(crate) elo: u32,
    pub(crate) overhead: Duration,
    pub(crate) chess960: bool,
    pub(crate) variant: GameKind,
    pub(crate) ponder: bool,
    pub(crate) evaluation: Evaluation,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            skill: Level::MAX,
            limit_strength: false,
            elo: LEVEL_ELO[9],
            overhead: Duration::from_millis(30),
            chess960: false,
            // UCI's own game.
            variant: GameKind::Chess,
            ponder: false,
            evaluation: Evaluation::default(),
        }
    }
}

/// What a successful `setoption` asks of the session beyond storing the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Nothing more.
    None,
    /// The hash table must be rebuilt at its new size.
    Resize,
    /// The hash table must be cleared.
    ClearHash,
    /// The game kind changed: back to its start position.
    NewGameKind,
    /// The evaluation changed (`UseNNUE`).
    Evaluation,
}

impl Options {
    /// The `option` lines of the `uci` answer.
    pub(crate) fn announce() -> Vec<String> {
        let d = Options::default();
        let lo = LEVEL_ELO[0];
        let hi = LEVEL_ELO[9];
        vec![
            format!(
                "option name Hash type spin default {} min 1 max 65536",
                d.hash_mb
            ),
            "option name Clear Hash type button".to_owned(),
            format!(
                "option name Threads type spin default {} min 1 max 256",
                d.threads
            ),
            format!(
                "option name MultiPV type spin default {} min 1 max 500",
                d.multipv
            ),
            format!(
                "option name Skill Level type spin default {} min 1 max 10",
                d.skill
            ),
            "option name UCI_LimitStrength type check default false".to_owned(),
            format!("option name UCI_Elo type spin default {hi} min {lo} max {hi}"),
            format!(
                "option name Move Overhead type spin default {} min 0 max 5000",
                d.overhead.as_millis()
            ),
            "option name Ponder type check default false".to_owned(),
            "option name UCI_Chess960 type check default false".to_owned(),
            format!(
                "option name UseNNUE type check default {}",
                d.evaluation == Evaluation::Network
            ),
            format!(
                "option name UCI_Variant type combo default {} var {}",
                d.variant,
                uci_game_ids(" var ")
            ),
        ]
    }

    /// The level to play at, `None` for full strength.
    pub(crate) fn level(&self) -> Option<Level> {
        if self.limit_strength {
            Some(level_for_elo(self.elo))
        } else {
            (self.skill != Level::MAX).then_some(self.skill)
        }
    }

    /// Applies `setoption name <name> value <value>`.
    ///
    /// # Errors
    ///
    /// A message naming the option and why the value is refused, or that the option
    /// is unknown; nothing changes then.
    pub(crate) fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            let text = value.ok_or_else(|| format!("option {name}: missing value"))?;
            match text.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option {name}: value {text:?} is not a whole number from {min} to {max}"
                )),
            }
        };
        let check = || -> Result<bool, String> {
            match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                other => Err(format!(
                    "option {name}: value {:?} is not true or false",
                    other.unwrap_or("")
                )),
            }
        };
        let usize_of = |n: u64| usize::try_from(n).expect("option ranges fit in usize");
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = usize_of(spin(1, 65_536)?);
                let changed = mb != self.hash_mb;
                self.hash_mb = mb;
                Ok(if changed {
                    Effect::Resize
                } else {
                    Effect::None
                })
            }
            "clear hash" => Ok(Effect::ClearHash),
            "threads" => {
                self.threads = usize_of(spin(1, 256)?);
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = usize_of(spin(1, 500)?);
                Ok(Effect::None)
            }
            "skill level" => {
                let n = u8::try_from(spin(1, 10)?).expect("at most 10");
                self.skill = Level::new(n).expect("1 to 10 is a level");
                Ok(Effect::None)
            }
            "uci_limitstrength" => {
                self.limit_strength = check()?;
                Ok(Effect::None)
            }
            "uci_elo" => {
                let elo = spin(u64::from(LEVEL_ELO[0]), u64::from(LEVEL_ELO[9]))?;
                self.elo = u32::try_from(elo).expect("within the Elo table");
                Ok(Effect::None)
            }
            "move overhead" => {
                self.overhead = Duration::from_millis(spin(0, 5000)?);
                Ok(Effect::None)
            }
            "ponder" => {
                self.ponder = check()?;
                Ok(Effect::None)
            }
            "usennue" | "use nnue" => {
                let evaluation = if check()? {
                    Evaluation::Network
                } else {
                    Evaluation::Hand
                };
                let changed = evaluation != self.evaluation;
                self.evaluation = evaluation;
                Ok(if changed {
                    Effect::Evaluation
                } else {
                    Effect::None
                })
            }
            "uci_chess960" => {
                let on = check()?;
                let changed = on != self.chess960;
                self.chess960 = on;
                Ok(if changed && Variant::Chess960.is_of(self.variant) {
                    Effect::NewGameKind
                } else {
                    Effect::None
                })
            }
            "uci_variant" => {
                let text = value.unwrap_or("");
                let variant = uci_games()
                    .find(|v| v.id().eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        format!(
                            "option UCI_Variant: unknown variant {text:?} (variants: {})",
                            uci_game_ids(", ")
                        )
                    })?;
                let changed = variant != self.variant;
                self.variant = variant;
                Ok(if changed {
                    Effect::NewGameKind
                } else {
                    Effect::None
                })
            }
            _ => Err(format!("unknown option {name:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_table_rises_and_maps_back() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        for (i, &elo) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(usize::from(level_for_elo(elo).get()), i + 1);
        }
    }

    #[test]
    fn set_checks_ranges_and_names() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("128")), Ok(Effect::Resize));
        assert_eq!(o.hash_mb, 128);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("big")).is_err());
        assert_eq!(o.hash_mb, 128);
        assert_eq!(o.set("Skill Level", Some("3")), Ok(Effect::None));
        assert_eq!(o.level().map(Level::get), Some(3));
        o.set("UCI_LimitStrength", Some("true"))
            .expect("a check value");
        o.set("UCI_Elo", Some("1000")).expect("in range");
        assert_eq!(o.level().map(Level::get), Some(2));
        assert_eq!(
            o.set("UCI_Variant", Some("xiangqi")),
            Ok(Effect::NewGameKind)
        );
        assert_eq!(
            o.set("UCI_Variant", Some("Chess3D")),
            Ok(Effect::NewGameKind)
        );
        assert_eq!(o.variant, GameKind::Chess3d);
        assert!(o.set("UCI_Variant", Some("shogi")).is_err());
        assert!(o.set("Contempt", Some("0")).is_err());
        assert_eq!(o.set("Move Overhead", Some("100")), Ok(Effect::None));
        assert_eq!(o.overhead, Duration::from_millis(100));
        // The network is the default; the hand evaluation is one option away.
        assert_eq!(o.evaluation, Evaluation::Network);
        assert_eq!(o.set("UseNNUE", Some("false")), Ok(Effect::Evaluation));
        assert_eq!(o.evaluation, Evaluation::Hand);
        assert_eq!(o.set("UseNNUE", Some("false")), Ok(Effect::None));
        assert!(o.set("UseNNUE", Some("maybe")).is_err());
    }
}
