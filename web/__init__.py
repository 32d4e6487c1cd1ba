"""The servers' web pages (issue 25): `python -m web`, a process of its own beside the bot,
reading the bot's store (read-only) and writing nothing.

- `web.settings`: its settings from the environment (DATABASE, WEB_*, DISCORD_CLIENT_*);
- `web.app`: the application, its headers, rate limit, error pages and access per server;
- `web.pages` (home, leaderboards, players), `web.replay` (the replay viewer and its
  pictures), `web.live` (live tables, Server-Sent Events), `web.oauth` (log in with
  Discord), `web.session` (signed cookies), `web.markup` and `web.cards` (the bot's texts
  and cards as HTML);
- `web/templates` (Jinja2, autoescaped) and `web/static` (CSS, the site's scripts, the
  vendored Chart.js).
"""
