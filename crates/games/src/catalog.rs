//! The catalog: every game and variant tablero plays, with the stable ids of the
//! interfaces page. [`GameKind`] and [`Variant`] are those ids as types: parse a
//! request's text once, then pass the value around.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

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

/// A variant of a game, as the interfaces page names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantInfo {
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
                id: "standard",
                name: "Standard",
            },
            VariantInfo {
                id: "chess960",
                name: "Chess960",
            },
        ],
        sides: ["white", "black"],
        available: true,
    },
    GameInfo {
        kind: GameKind::Xiangqi,
        id: "xiangqi",
        name: "Xiangqi",
        variants: &[VariantInfo {
            id: "standard",
            name: "Standard",
        }],
        sides: ["red", "black"],
        available: true,
    },
    GameInfo {
        kind: GameKind::Draughts,
        id: "draughts",
        name: "Draughts",
        variants: &[
            VariantInfo {
                id: "english",
                name: "English",
            },
            VariantInfo {
                id: "international",
                name: "International",
            },
            VariantInfo {
                id: "brazilian",
                name: "Brazilian",
            },
            VariantInfo {
                id: "russian",
                name: "Russian",
            },
            VariantInfo {
                id: "spanish",
                name: "Spanish",
            },
            VariantInfo {
                id: "italian",
                name: "Italian",
            },
        ],
        sides: ["white", "black"],
        available: true,
    },
    GameInfo {
        kind: GameKind::Chess3d,
        id: "chess3d",
        name: "Ajedrez 3D",
        variants: &[VariantInfo {
            id: "standard",
            name: "Standard",
        }],
        sides: ["white", "black"],
        available: true,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
