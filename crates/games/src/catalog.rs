//! The catalog: every game and variant tablero plays, with the stable ids of the
//! interfaces page. [`GameKind`] and [`Variant`] are those ids as types: parse a
//! request's text once, then pass the value around.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;
use tablero_draughts::RuleSet;

/// Which game: the four tablero plays.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Chess (and Chess960).
    Chess,
    /// Xiangqi.
    Xiangqi,
    /// Draughts, in six rule sets.
    Draughts,
    /// Ajedrez 3D.
    Chess3d,
}

/// A game id that is not in the catalog.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (games: chess, xiangqi, draughts, chess3d)")]
pub struct UnknownGame(pub String);

impl GameKind {
    /// Every game, in the catalog's order.
    pub const ALL: [GameKind; 4] = [
        GameKind::Chess,
        GameKind::Xiangqi,
        GameKind::Draughts,
        GameKind::Chess3d,
    ];

    /// The stable id: `chess`, `xiangqi`, `draughts`, `chess3d`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.info().id
    }

    /// The game's entry in the catalog.
    #[must_use]
    pub const fn info(self) -> &'static GameInfo {
        &CATALOG[self as usize]
    }

    /// The name of `side` in this game (`red` for xiangqi's first side).
    #[must_use]
    pub const fn side_name(self, side: Side) -> &'static str {
        self.info().sides[side.index()]
    }

    /// Whether the game has a whole-game clock besides Fischer's (chess3d's timed
    /// mode, rule book §8).
    #[must_use]
    pub const fn has_game_clock(self) -> bool {
        matches!(self, GameKind::Chess3d)
    }

    /// The file extension of the game's record: `pgn` (chess, xiangqi), `pdn`
    /// (draughts) or `txt` (the chess3d record).
    #[must_use]
    pub const fn record_extension(self) -> &'static str {
        match self {
            GameKind::Chess | GameKind::Xiangqi => "pgn",
            GameKind::Draughts => "pdn",
            GameKind::Chess3d => "txt",
        }
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.id() == s)
            .ok_or_else(|| UnknownGame(s.to_owned()))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A variant id as a type. `standard` is the variant of chess, xiangqi and chess3d;
/// the draughts variants are its rule sets.
///
/// Serialised as its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// The game's standard rules.
    Standard,
    /// Chess960 (Fischer random chess).
    Chess960,
    /// A draughts rule set: its id is the rule set's (`english`, `international`, ...).
    Draughts(RuleSet),
}

/// A variant id that the game does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {text:?} of {game} (variants: {})", game.variant_ids().join(", "))]
pub struct UnknownVariant {
    /// The game asked.
    pub game: GameKind,
    /// The text given.
    pub text: String,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 8] = [
        Variant::Standard,
        Variant::Chess960,
        Variant::Draughts(RuleSet::ALL[0]),
        Variant::Draughts(RuleSet::ALL[1]),
        Variant::Draughts(RuleSet::ALL[2]),
        Variant::Draughts(RuleSet::ALL[3]),
        Variant::Draughts(RuleSet::ALL[4]),
        Variant::Draughts(RuleSet::ALL[5]),
    ];

    /// The stable id (`standard`, `chess960`, `english`, ...).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
            Variant::Draughts(rules) => rules.id(),
        }
    }

    /// Whether `game` has this variant.
    #[must_use]
    pub fn is_of(self, game: GameKind) -> bool {
        game.variants().any(|v| v == self)
    }
}

/// A variant id that no game has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant {0:?} (variants: standard, chess960, english, international, brazilian, russian, spanish, italian)"
)]
pub struct ParseVariantError(pub String);

impl FromStr for Variant {
    type Err = ParseVariantError;

    /// Any game's variant id; [`GameKind::variant`] also checks it is the game's.
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == s)
            .ok_or_else(|| ParseVariantError(s.to_owned()))
    }
}

impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Variant, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl GameKind {
    /// The game's variants, the default first.
    pub fn variants(self) -> impl Iterator<Item = Variant> {
        self.info().variants.iter().map(|v| v.variant)
    }

    /// The game's variant ids, the default first.
    #[must_use]
    pub fn variant_ids(self) -> Vec<&'static str> {
        self.info().variants.iter().map(|v| v.id).collect()
    }

    /// The variant named `text` of this game; `None` is the default.
    ///
    /// # Errors
    ///
    /// [`UnknownVariant`] naming the game's variants.
    pub fn variant(self, text: Option<&str>) -> Result<Variant, UnknownVariant> {
        match text {
            None => Ok(self.info().variants[0].variant),
            Some(text) => self
                .variants()
                .find(|v| v.id() == text)
                .ok_or_else(|| UnknownVariant {
                    game: self,
                    text: text.to_owned(),
                }),
        }
    }
}

/// A variant of a game, as the interfaces page names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantInfo {
    /// The variant.
    pub variant: Variant,
    /// The stable id (`--variant`, API, store).
    pub id: &'static str,
    /// A name for people.
    pub name: &'static str,
}

/// A game of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// The game.
    pub kind: GameKind,
    /// The stable id: `chess`, `xiangqi`, `draughts`, `chess3d`.
    pub id: &'static str,
    /// A name for people.
    pub name: &'static str,
    /// Its variants; the first is the default.
    pub variants: &'static [VariantInfo],
    /// The names of the sides, the uppercase (first listed in the position format) first.
    pub sides: [&'static str; 2],
    /// Whether this build plays it.
    pub available: bool,
    /// How outside engines that play it are spoken to.
    pub engine_protocol: EngineProtocol,
    /// The fewest and most random plies of an opening for engine matches: enough to
    /// vary the games, few enough that most openings stay balanced.
    pub opening_plies: (u8, u8),
    /// The pieces' kind letters ([`crate::PlacedPiece::letter`]), the king or royal
    /// piece among them: what a position editor offers.
    pub piece_letters: &'static str,
}

/// The protocol of the outside engines that play a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineProtocol {
    /// The Universal Chess Interface (chess, and other games through `UCI_Variant`).
    Uci {
        /// The `UCI_Variant` value that selects the game; `None` for chess, UCI's own.
        variant: Option<&'static str>,
        /// Whether an engine without a `UCI_Variant` option is taken to play this game
        /// (engines written for xiangqi alone); otherwise it has to be asked for.
        assumed_without_variants: bool,
        /// Whether tablero numbers the first rank 0 (xiangqi's `e0`), which some
        /// engines number from 1.
        ranks_from_zero: bool,
    },
    /// The Hub protocol of draughts engines.
    Hub,
}

impl GameInfo {
    /// The default variant's id.
    #[must_use]
    pub fn default_variant(&self) -> &'static str {
        self.variants.first().map_or("standard", |v| v.id)
    }
}

/// Every game tablero knows, with the ids fixed by the interfaces page, in
/// [`GameKind`] order.
pub const CATALOG: &[GameInfo] = &[
    GameInfo {
        kind: GameKind::Chess,
        id: "chess",
        name: "Chess",
        variants: &[
            VariantInfo {
                variant: Variant::Standard,
                id: "standard",
                name: "Standard",
            },
            VariantInfo {
                variant: Variant::Chess960,
                id: "chess960",
                name: "Chess960",
            },
        ],
        sides: ["white", "black"],
        available: true,
        engine_protocol: EngineProtocol::Uci {
            variant: None,
            assumed_without_variants: true,
            ranks_from_zero: false,
        },
        opening_plies: (4, 8),
        piece_letters: "pnbrqk",
    },
    GameInfo {
        kind: GameKind::Xiangqi,
        id: "xiangqi",
        name: "Xiangqi",
        variants: &[VariantInfo {
            variant: Variant::Standard,
            id: "standard",
            name: "Standard",
        }],
        sides: ["red", "black"],
        available: true,
        engine_protocol: EngineProtocol::Uci {
            variant: Some("xiangqi"),
            assumed_without_variants: true,
            ranks_from_zero: true,
        },
        opening_plies: (4, 8),
        piece_letters: "kabrncp",
    },
    GameInfo {
        kind: GameKind::Draughts,
        id: "draughts",
        name: "Draughts",
        variants: &[
            VariantInfo {
                variant: Variant::Draughts(RuleSet::English),
                id: "english",
                name: "English",
            },
            VariantInfo {
                variant: Variant::Draughts(RuleSet::International),
                id: "international",
                name: "International",
            },
            VariantInfo {
                variant: Variant::Draughts(RuleSet::Brazilian),
                id: "brazilian",
                name: "Brazilian",
            },
            VariantInfo {
                variant: Variant::Draughts(RuleSet::Russian),
                id: "russian",
                name: "Russian",
            },
            VariantInfo {
                variant: Variant::Draughts(RuleSet::Spanish),
                id: "spanish",
                name: "Spanish",
            },
            VariantInfo {
                variant: Variant::Draughts(RuleSet::Italian),
                id: "italian",
                name: "Italian",
            },
        ],
        sides: ["white", "black"],
        available: true,
        engine_protocol: EngineProtocol::Hub,
        opening_plies: (2, 4),
        piece_letters: "mk",
    },
    GameInfo {
        kind: GameKind::Chess3d,
        id: "chess3d",
        name: "Ajedrez 3D",
        variants: &[VariantInfo {
            variant: Variant::Standard,
            id: "standard",
            name: "Standard",
        }],
        sides: ["white", "black"],
        available: true,
        engine_protocol: EngineProtocol::Uci {
            variant: Some("chess3d"),
            assumed_without_variants: false,
            ranks_from_zero: false,
        },
        opening_plies: (2, 4),
        piece_letters: "pactdr",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_ids_are_the_catalogs_and_round_trip() {
        for kind in GameKind::ALL {
            for info in kind.info().variants {
                assert_eq!(info.variant.id(), info.id, "{kind}");
                assert_eq!(info.id.parse::<Variant>(), Ok(info.variant));
            }
        }
        for rules in RuleSet::ALL {
            assert_eq!(Variant::Draughts(rules).id(), rules.id());
        }
        assert!("checkers".parse::<Variant>().is_err());
    }

    #[test]
    fn kinds_and_catalog_agree() {
        for kind in GameKind::ALL {
            assert_eq!(kind.info().kind, kind);
            assert_eq!(kind.id().parse(), Ok(kind));
            assert_eq!(kind.to_string(), kind.id());
        }
        assert_eq!(CATALOG.len(), GameKind::ALL.len());
        assert_eq!(
            "go".parse::<GameKind>().map_err(|e| e.to_string()),
            Err("unknown game \"go\" (games: chess, xiangqi, draughts, chess3d)".to_owned())
        );
        assert_eq!(GameKind::Xiangqi.side_name(Side::White), "red");
        for info in CATALOG {
            for v in info.variants {
                assert_eq!(v.variant.id(), v.id);
            }
        }
        assert_eq!(
            GameKind::Draughts.variant(None),
            Ok(Variant::Draughts(RuleSet::English))
        );
        for v in Variant::ALL {
            assert_eq!(v.id().parse(), Ok(v));
        }
        assert!("atomic".parse::<Variant>().is_err());
        assert_eq!(
            GameKind::Chess.variant(Some("chess960")),
            Ok(Variant::Chess960)
        );
        assert_eq!(
            GameKind::Xiangqi
                .variant(Some("chess960"))
                .map_err(|e| e.to_string()),
            Err("unknown variant \"chess960\" of xiangqi (variants: standard)".to_owned())
        );
    }
}
