-- Released migrations are never edited: add a new file instead.

-- Glicko-2 ratings per game kind. A row exists once a player has finished a rated
-- game of that kind (both seats people with different names); computer games are
-- not rated.
CREATE TABLE player_ratings (
    player_id  INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL CHECK (deviation > 0),
    volatility REAL NOT NULL CHECK (volatility > 0),
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0), -- rated games played
    PRIMARY KEY (player_id, game)
) WITHOUT ROWID;

-- Won/lost counts brought in by a player file (`Name_Won_Lost;`). They are kept apart
-- from the counts of games played here: a player's totals are both added together,
-- and importing a file again replaces this row, so the same file twice counts once.
CREATE TABLE player_imported (
    player_id   INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    won         INTEGER NOT NULL CHECK (won >= 0),
    lost        INTEGER NOT NULL CHECK (lost >= 0),
    imported_at TEXT NOT NULL
);
