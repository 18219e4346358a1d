-- Released migrations are never edited: add a new file instead.

-- People who played a game under a name. Computer seats are not players.
CREATE TABLE players (
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- registration order
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

-- Results per game kind (chess, xiangqi, draughts, chess3d).
CREATE TABLE player_stats (
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game      TEXT NOT NULL,
    won       INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),
    lost      INTEGER NOT NULL DEFAULT 0 CHECK (lost >= 0),
    drawn     INTEGER NOT NULL DEFAULT 0 CHECK (drawn >= 0),
    PRIMARY KEY (player_id, game)
) WITHOUT ROWID;

-- One row per game. Seats are stored by side ("white" is also xiangqi's red). A seat is
-- a human (name, token) or the computer (level); names are copied, not referenced, so
-- that a deleted player's games keep the name.
CREATE TABLE games (
    id                 TEXT PRIMARY KEY,
    game               TEXT NOT NULL,
    variant            TEXT NOT NULL,
    start_position     TEXT NOT NULL,
    seed               TEXT,            -- chess3d generator seed, 16 hex digits
    mode               TEXT NOT NULL CHECK (mode IN ('hotseat', 'computer', 'online')),
    white_name         TEXT,
    white_level        INTEGER CHECK (white_level BETWEEN 1 AND 10),
    white_token        TEXT,
    black_name         TEXT,
    black_level        INTEGER CHECK (black_level BETWEEN 1 AND 10),
    black_token        TEXT,
    clock_kind         TEXT CHECK (clock_kind IN ('fischer', 'game')),
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    white_ms           INTEGER,         -- remaining time after the last move
    black_ms           INTEGER,
    status             TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished')),
    winner             TEXT CHECK (winner IN ('white', 'black')),
    reason             TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);

CREATE INDEX games_by_status ON games (status, updated_at);

-- The moves in the game's move format; ply 0 is the first move.
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    move      TEXT NOT NULL,
    white_ms  INTEGER,
    black_ms  INTEGER,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
