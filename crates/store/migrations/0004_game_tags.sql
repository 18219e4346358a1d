-- Released migrations are never edited: add a new file instead.

-- The tags of an imported record that tablero keeps and writes back on export
-- (Event, Site, Date, Round and the players as the file names them): a JSON array of
-- [name, value] pairs, in file order.
ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
