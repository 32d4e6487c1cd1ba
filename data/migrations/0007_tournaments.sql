-- Tournaments (issue 26): a tournament's state, its tables, the messages it has to post and
-- its final places (the tournaments board).
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.

-- One row per tournament. `state` is the engine's JSON (engine/tournaments, versioned by the
-- engine); `extra` is the bot's own part (the game's options, the start time, the clocks and
-- when they were saved, the sign-up message, the scheduled event). `version` counts the
-- writes, so that two writers cannot both save over the same state.
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (length(kind) > 0),
    organiser_id  INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'over')),
    version       INTEGER NOT NULL CHECK (version >= 1),
    state         TEXT    NOT NULL CHECK (json_valid(state)),
    extra         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(extra)),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status, id);

-- Each table a tournament opened, written before the table itself, so that the table's
-- finished game finds it: the store writes the result here in the game's own transaction.
-- `result` is NULL while the table plays, then 'finished' (with `places` in seat order) or
-- 'aborted'; `applied` says the tournament's state has taken it in (set in that write).
CREATE TABLE tournament_tables (
    table_id       TEXT    NOT NULL PRIMARY KEY CHECK (length(table_id) > 0),
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    number         INTEGER NOT NULL CHECK (number >= 1),
    thread_id      INTEGER NOT NULL,
    game_id        INTEGER REFERENCES games (id),
    result         TEXT    CHECK (result IS NULL OR result IN ('finished', 'aborted')),
    places         TEXT    CHECK (places IS NULL OR json_valid(places)),
    applied        INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1)),
    UNIQUE (tournament_id, round, number)
);
CREATE INDEX tournament_tables_waiting ON tournament_tables (tournament_id, applied, result);

-- What a tournament has to say in its channel, written with the change that said it and
-- posted by the bot afterwards (again after a crash, until marked sent).
CREATE TABLE tournament_messages (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    body           TEXT    NOT NULL CHECK (json_valid(body)),
    created_at     TEXT    NOT NULL,
    sent_at        TEXT
);
CREATE INDEX tournament_messages_by_tournament ON tournament_messages (tournament_id, sent_at, id);

-- The final places of a tournament that is over: the tournaments board (events won, best
-- place). user_id is NULL for an AI entrant.
CREATE TABLE tournament_places (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    player         TEXT    NOT NULL CHECK (length(player) > 0),
    guild_id       INTEGER NOT NULL,
    kind           TEXT    NOT NULL,
    user_id        INTEGER,
    name           TEXT    NOT NULL,
    place          INTEGER NOT NULL CHECK (place >= 1),
    score          REAL    NOT NULL,
    PRIMARY KEY (tournament_id, player)
);
CREATE INDEX tournament_places_by_guild ON tournament_places (guild_id, user_id);
