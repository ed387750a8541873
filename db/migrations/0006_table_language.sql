-- The language a table speaks (its thread, its images, its public messages): one of the
-- catalogue's languages (i18n.languages()). Tables opened before this migration spoke English.

ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en'
