-- Released migrations are never edited: add a new file instead.

-- The lease is the process's, not each game's: a process renews one row (its own)
-- every 250 ms, where renewing a lease on every game it looks after locked those
-- rows against the moves being written. A game belongs to `games.owner` for as long
-- as that process's row is alive.
CREATE TABLE processes (
    name        TEXT PRIMARY KEY,
    alive_until TIMESTAMPTZ NOT NULL
);

DROP INDEX games_to_look_after;
ALTER TABLE games DROP COLUMN lease_until;
CREATE INDEX games_to_look_after ON games (owner) WHERE status = 'playing';
