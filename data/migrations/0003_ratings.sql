-- Skill ratings (OpenSkill, Plackett–Luce; see bot/ratings.py), written by bot/store_ratings.py
-- in the same transaction as the finished game they come from.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.
-- Written, like the other migrations, in SQLite's dialect (INTEGER is 64-bit, REAL an 8-byte
-- float), with nothing PostgreSQL cannot take once they are read as BIGINT and DOUBLE
-- PRECISION.

-- The current rating of every rated entity, per server and game. An entity is a person
-- ('user:<id>', with user_id set) or an AI level ('ai:<level>', user_id NULL).
CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (length(kind) > 0),
    entity        TEXT    NOT NULL CHECK (length(entity) > 0),
    user_id       INTEGER REFERENCES players (user_id),
    mu            REAL    NOT NULL,
    sigma         REAL    NOT NULL CHECK (sigma > 0),
    games         INTEGER NOT NULL CHECK (games >= 0),
    last_game_id  INTEGER REFERENCES games (id) ON DELETE SET NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, kind, entity),
    CHECK ((user_id IS NULL) = (entity LIKE 'ai:%'))
);
CREATE INDEX ratings_by_user ON ratings (user_id, guild_id);

-- What each rated game did to each entity's rating: the audit trail (a replay of the
-- recorded games through OpenSkill must give the same numbers) and /stats' last change.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    entity        TEXT    NOT NULL CHECK (length(entity) > 0),
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (game_id, entity)
);
