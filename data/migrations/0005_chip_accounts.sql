-- Chips as double-entry bookkeeping: every chip move is a transfer between two accounts, and
-- each account's balance is the sum of its ledger rows.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.
--
-- The accounts of a server:
--   * a member's balance: chip_balances (CHECK balance >= 0), its rows in chip_ledger;
--   * the house ('house'): it issues every chip (opening balances, dailies, grants, the
--     stacks of AI seats), so its balance is minus what it has issued and may be negative;
--   * a table's own account ('table:<table_id>'): the chips its seats hold, never negative.
-- The house and the tables are kept in chip_accounts, their rows in chip_account_ledger.
-- A member's row in chip_ledger is one leg of a transfer whose other leg is a row of
-- chip_account_ledger: on the table's account when the row names a table (a buy-in, a
-- cash-out, a refund), else on the house's. A transfer between the house and a table (an AI
-- seat's buy-in or cash-out) is two rows of chip_account_ledger. So in every server the legs
-- add up to 0, and the house's issue equals what members and tables hold.

CREATE TABLE chip_accounts (
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account = 'house' OR account LIKE 'table:_%'),
    balance     INTEGER NOT NULL,
    -- 1: opened by this migration for a table that was open, from a ledger that never
    -- recorded its AI seats' chips; the store's reconcile_table_account settles it with the
    -- house once, when the table is restored, and clears the mark.
    legacy      INTEGER NOT NULL DEFAULT 0 CHECK (legacy IN (0, 1)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, account),
    CHECK (account = 'house' OR balance >= 0)
) WITHOUT ROWID;

-- One leg of a transfer on the house's or a table's account: delta is what the account
-- gained (negative: what it paid), counterparty the other account ('user:<id>', 'house' or
-- 'table:<table_id>').
CREATE TABLE chip_account_ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    account       TEXT    NOT NULL,
    counterparty  TEXT    NOT NULL CHECK (counterparty = 'house'
                                          OR counterparty LIKE 'table:_%'
                                          OR counterparty LIKE 'user:_%'),
    delta         INTEGER NOT NULL CHECK (delta <> 0),
    reason        TEXT    NOT NULL CHECK (length(reason) > 0),
    table_id      TEXT,
    game_id       INTEGER REFERENCES games (id) ON DELETE SET NULL,
    created_at    TEXT    NOT NULL,
    FOREIGN KEY (guild_id, account) REFERENCES chip_accounts (guild_id, account),
    CHECK (account <> counterparty)
);
CREATE INDEX chip_account_ledger_by_account ON chip_account_ledger (guild_id, account, id);

-- What each member paid into a table, net: what a table set aside at restore refunds.
CREATE INDEX chip_ledger_by_table ON chip_ledger (table_id, guild_id) WHERE table_id IS NOT NULL;

-- The backfill, from the ledger as it stands. Every table the ledger names, with what its
-- members paid into it net, and every table open now (a snapshot), ledger rows or not.
CREATE TABLE chip_migration_tables (
    guild_id   INTEGER NOT NULL,
    table_id   TEXT    NOT NULL,
    net        INTEGER NOT NULL,
    is_open    INTEGER NOT NULL DEFAULT 0,
    settle     INTEGER NOT NULL DEFAULT 0,
    first_at   TEXT    NOT NULL,
    last_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, table_id)
);
INSERT INTO chip_migration_tables (guild_id, table_id, net, first_at, last_at)
SELECT guild_id, table_id, CAST(-sum(delta) AS INTEGER), min(created_at), max(created_at)
FROM chip_ledger WHERE table_id IS NOT NULL GROUP BY guild_id, table_id;
INSERT INTO chip_migration_tables (guild_id, table_id, net, first_at, last_at)
SELECT s.guild_id, s.table_id, 0, s.created_at, s.updated_at FROM table_snapshots s
WHERE NOT EXISTS (SELECT 1 FROM chip_migration_tables m
                  WHERE m.guild_id = s.guild_id AND m.table_id = s.table_id);
UPDATE chip_migration_tables SET is_open = 1
WHERE EXISTS (SELECT 1 FROM table_snapshots s
              WHERE s.guild_id = chip_migration_tables.guild_id
              AND s.table_id = chip_migration_tables.table_id);
-- Before this migration AI seats' chips were nobody's, so a table's members' net need not be
-- what it holds. The house settles the difference: a closed table's account to 0 (what its
-- AI seats won or lost), an open table's to at least 0 (its people won from its AI seats);
-- an open table's stacks are matched later (reconcile_table_account, at restore).
UPDATE chip_migration_tables
SET settle = CASE WHEN is_open = 1 AND net >= 0 THEN 0 ELSE -net END;

INSERT INTO chip_accounts (guild_id, account, balance, legacy, created_at, updated_at)
SELECT guild_id, 'table:' || table_id, net + settle, is_open, first_at, last_at
FROM chip_migration_tables;

INSERT INTO chip_accounts (guild_id, account, balance, legacy, created_at, updated_at)
SELECT guild_id, 'house', CAST(-sum(delta) AS INTEGER), 0, min(created_at), max(created_at)
FROM (
    SELECT guild_id, delta, created_at FROM chip_ledger WHERE table_id IS NULL
    UNION ALL
    SELECT guild_id, settle, last_at FROM chip_migration_tables WHERE settle <> 0
) AS moves
GROUP BY guild_id;

-- The other leg of every member row, in the members' order.
INSERT INTO chip_account_ledger
    (guild_id, account, counterparty, delta, reason, table_id, game_id, created_at)
SELECT guild_id, CASE WHEN table_id IS NULL THEN 'house' ELSE 'table:' || table_id END,
       'user:' || CAST(user_id AS TEXT), -delta, reason, table_id, game_id, created_at
FROM chip_ledger ORDER BY id;

-- The settlements: the table's leg, then the house's.
INSERT INTO chip_account_ledger
    (guild_id, account, counterparty, delta, reason, table_id, game_id, created_at)
SELECT guild_id, 'table:' || table_id, 'house', settle, 'legacy settlement', table_id, NULL,
       last_at
FROM chip_migration_tables WHERE settle <> 0 ORDER BY guild_id, table_id;
INSERT INTO chip_account_ledger
    (guild_id, account, counterparty, delta, reason, table_id, game_id, created_at)
SELECT guild_id, 'house', 'table:' || table_id, -settle, 'legacy settlement', table_id, NULL,
       last_at
FROM chip_migration_tables WHERE settle <> 0 ORDER BY guild_id, table_id;

DROP TABLE chip_migration_tables;
