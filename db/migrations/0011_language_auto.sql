-- The server's language setting gains "auto" (its default): the server's preferred locale when
-- the bot speaks it, else English. Until now a stored "en" meant exactly that, since English
-- was taken for "not set"; from now on "en" forces English. Stored "en" values are dropped, so
-- those servers keep the behaviour they had (the default, "auto").
UPDATE guild_settings SET settings = json_remove(settings, '$.language')
WHERE json_valid(settings) AND json_extract(settings, '$.language') = 'en';
