-- A tournament speaks one language, as a table does: the server's when it was created. Its
-- sign-up message, threads, tables and final post are in it (tournaments before this speak
-- English). Each entrant's name, as the tables show it, is kept so that a restart between
-- rounds does not seat them under a bare id.
ALTER TABLE tournaments ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE tournament_entrants ADD COLUMN name TEXT;
