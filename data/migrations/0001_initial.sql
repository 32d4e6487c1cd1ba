-- Dealer's Choice: the initial schema.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.
-- Do not put BEGIN/COMMIT here, and never edit a migration once released: add a new file.
--
-- Conventions:
--   * Discord ids (guild, channel, user) are INTEGER: snowflakes fit in 63 bits.
--   * Timestamps are TEXT in one fixed ISO-8601 UTC form written by the store
--     ('2024-05-01T12:00:00.000000+00:00'), so that text order is time order.
--   * JSON columns are TEXT checked with json_valid(); the store writes them compactly.
--   * Booleans are INTEGER 0/1 with a CHECK.

-- Per-server settings (defaults live in code; a row exists only once a setting is changed).
CREATE TABLE guild_settings (
    guild_id    INTEGER NOT NULL,
    key         TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 100),
    value       TEXT    NOT NULL CHECK (json_valid(value)),
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

-- Everyone who has played, with the name last seen (for leaderboards).
CREATE TABLE players (
    user_id       INTEGER PRIMARY KEY,
    display_name  TEXT    NOT NULL CHECK (length(display_name) > 0),
    first_seen    TEXT    NOT NULL,
    last_seen     TEXT    NOT NULL,
    CHECK (last_seen >= first_seen)
);

-- Games that ended: finished ones count in stats, aborted ones are kept for the record only.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (length(kind) > 0),
    table_id     TEXT,
    started_at   TEXT    NOT NULL,
    finished_at  TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('finished', 'aborted')),
    options      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    -- TEXT because a Python seed is an int of any size (e.g. getrandbits(64) > 2**63 - 1).
    seed         TEXT,
    CHECK (finished_at >= started_at)
);
CREATE INDEX games_by_guild_kind ON games (guild_id, kind, status, finished_at);

-- One row per seat of an ended game. user_id is NULL for an AI seat, which then has a label.
CREATE TABLE game_results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER REFERENCES players (user_id),
    seat_label  TEXT,
    score       INTEGER,
    place       INTEGER CHECK (place >= 1),
    win         INTEGER NOT NULL DEFAULT 0 CHECK (win IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NOT NULL OR coalesce(length(seat_label), 0) > 0)
) WITHOUT ROWID;
-- A person holds at most one seat in a game (AI seats are not people).
CREATE UNIQUE INDEX game_results_one_seat_per_user
    ON game_results (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_results_by_user ON game_results (user_id, game_id);

-- The latest state of every unfinished table, rewritten after every engine step.
-- version counts the writes (1 on the first save), so a restored table knows how far it got.
CREATE TABLE table_snapshots (
    table_id    TEXT    NOT NULL PRIMARY KEY CHECK (length(table_id) > 0),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (length(kind) > 0),
    version     INTEGER NOT NULL CHECK (version >= 1),
    snapshot    TEXT    NOT NULL CHECK (json_valid(snapshot)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX table_snapshots_by_channel ON table_snapshots (guild_id, channel_id);

-- Snapshots that could not be restored, set aside with the reason instead of being lost or
-- crashing every start-up. Columns are loose on purpose: whatever was found is kept.
CREATE TABLE broken_snapshots (
    id                  INTEGER PRIMARY KEY,
    table_id            TEXT    NOT NULL,
    guild_id            INTEGER,
    channel_id          INTEGER,
    kind                TEXT,
    version             INTEGER,
    snapshot            BLOB,
    original_updated_at TEXT,
    error               TEXT    NOT NULL,
    set_aside_at        TEXT    NOT NULL
);
CREATE INDEX broken_snapshots_by_table ON broken_snapshots (table_id);

-- Play-money chips, one account per player per server. last_daily is the UTC date
-- ('YYYY-MM-DD') of the last daily claim.
CREATE TABLE chip_balances (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    balance     INTEGER NOT NULL CHECK (balance >= 0),
    last_daily  TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Every chip movement; the sum of an account's deltas is its balance, and balance_after is
-- the running balance, so the ledger can be audited line by line.
CREATE TABLE chip_ledger (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    delta          INTEGER NOT NULL CHECK (delta <> 0),
    balance_after  INTEGER NOT NULL CHECK (balance_after >= 0),
    reason         TEXT    NOT NULL CHECK (length(reason) > 0),
    table_id       TEXT,
    game_id        INTEGER REFERENCES games (id) ON DELETE SET NULL,
    created_at     TEXT    NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES chip_balances (guild_id, user_id)
);
CREATE INDEX chip_ledger_by_account ON chip_ledger (guild_id, user_id, id);
CREATE INDEX chip_ledger_by_game ON chip_ledger (game_id) WHERE game_id IS NOT NULL;
