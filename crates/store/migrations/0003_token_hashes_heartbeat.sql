-- Released migrations are never edited: add a new file instead.

-- Seat tokens are kept as their SHA-256 (64 hex digits), never as the secret itself.
-- The store moves tokens of older versions here when it opens (`white_token` and
-- `black_token` are then emptied and no longer written).
ALTER TABLE games ADD COLUMN white_token_hash TEXT;
ALTER TABLE games ADD COLUMN black_token_hash TEXT;

-- The server's last sign of life, written every 250 ms: after a crash, the clocks of
-- the games in progress stop at this moment, not at the last move.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT NOT NULL
);
