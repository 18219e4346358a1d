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

/// Every game tablero knows, with the ids fixed by the interfaces page.
pub const CATALOG: &[GameInfo] = &[
    GameInfo {
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
