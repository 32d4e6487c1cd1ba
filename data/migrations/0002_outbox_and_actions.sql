-- The table service's durable outbox, the presenter's message references, and the action log.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.

-- Every message a step must send, written in the same transaction as the step's snapshot; the
-- sender delivers a table's rows in id order and deletes each once Discord has it. After a
-- crash, the rows still here are sent (creates carry a nonce, so Discord drops a second copy).
-- AUTOINCREMENT: a row's id is never reused, since new messages carry a nonce made from it.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    TEXT    NOT NULL CHECK (length(table_id) > 0),
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    created_at  TEXT    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0)
);
CREATE INDEX outbox_by_table ON outbox (table_id, id);

-- The messages a table keeps pointing at (its board, a lobby, each seat's current prompt),
-- by a name of the presenter's choosing; written by the sender with the row that posted it.
CREATE TABLE message_refs (
    table_id    TEXT    NOT NULL,
    ref         TEXT    NOT NULL CHECK (length(ref) > 0),
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, ref)
) WITHOUT ROWID;

-- Every action applied at a table, in order: with the seed and options a game is rebuilt
-- exactly from these, finished or not (replays, audits, bug reports).
CREATE TABLE table_actions (
    table_id    TEXT    NOT NULL,
    step        INTEGER NOT NULL CHECK (step >= 1),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    action      TEXT    NOT NULL CHECK (json_valid(action)),
    at          TEXT    NOT NULL,
    PRIMARY KEY (table_id, step)
) WITHOUT ROWID;
