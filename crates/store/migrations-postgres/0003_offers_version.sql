-- Released migrations are never edited: add a new file instead.

-- Standing offers, as on SQLite (0005_offers.sql), and the game's version: one more
-- with every stored change, so that every process numbers a game's states alike and
-- a client that reaches another process never takes an older state for a newer one.
ALTER TABLE games ADD COLUMN draw_offer TEXT CHECK (draw_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_request TEXT CHECK (takeback_request IN ('white', 'black'));
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
