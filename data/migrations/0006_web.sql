-- Indexes for the web pages (issue 25): each page is one or two indexed queries, on 20,000
-- games as on twenty.
--
-- Applied by bot/store.py inside one transaction, together with its schema_version row.

-- A server's latest games (its home page) and a replay found by its table's short id.
CREATE INDEX games_by_guild_id ON games (guild_id, id);
CREATE INDEX games_by_guild_table ON games (guild_id, table_id);

-- A person's rating over time (the chart on their page): their changes in game order, with
-- the ratings the chart draws (covering: no row of the table read for them).
CREATE INDEX rating_changes_by_entity ON rating_changes (entity, game_id, mu_after, sigma_after);

-- A person's record per game (their page, WebReads.player_records): their results with the
-- columns it counts (covering: a game's results are read by game, not by person, otherwise).
CREATE INDEX game_results_by_user_counted ON game_results (user_id, game_id, win, score);
