-- Several bot processes on one PostgreSQL database (SHARD_COUNT, SHARD_IDS): which process
-- drives which shard's tables, and each outbox row's guild, so that a process sends the rows
-- of its own shards' tables only.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.

-- One row per shard: the process driving the tables of the guilds in it, until expires_at
-- (fixed-width UTC text, as every time here). The owner renews it well before then; a
-- process that finds it expired (its owner died) takes it over. A process without
-- SHARD_COUNT holds shard 0 of 1: every table.
CREATE TABLE shard_leases (
    shard_id     INTEGER NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
    shard_count  INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner        TEXT    NOT NULL CHECK (length(owner) > 0),
    acquired_at  TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);

-- The guild of the table a row belongs to (NULL for rows written before this migration,
-- which any process may send).
ALTER TABLE outbox ADD COLUMN guild_id INTEGER;

-- Discord sends every DM interaction to shard 0; a click in a DM on a table of another shard's
-- guild is passed on here to the process holding that shard (PostgreSQL's NOTIFY wakes it),
-- which claims the row (deletes it) and answers the interaction itself.
CREATE TABLE forwarded_interactions (
    id          INTEGER PRIMARY KEY,
    shard_id    INTEGER NOT NULL CHECK (shard_id >= 0),
    payload     TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at  TEXT    NOT NULL
);
