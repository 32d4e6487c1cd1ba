"""Tournaments: an evening of tables, paired, scored and ranked (issue 26), as pure data.

The engine's part of a tournament knows nothing of Discord, the store or the clock, as a
game does not: `Tournament` holds the whole state (entrants, rounds, tables, results, the
organiser's log), changes only through its operations, and saves as plain JSON. Ratings come
in as plain numbers (the bot's OpenSkill ratings, shown scale). The rules of each format,
the scoring and the tiebreaks are in docs/tournaments.md and in the modules' docs:

- `formats`: the formats, a tournament's settings, table sizes, `TournamentError`;
- `scoring`: points by finishing place at a table;
- `swiss`, `elimination`, `round_robin`: who sits with whom;
- `standings`: scores, tiebreaks, places;
- `records`: the plain records (entrants, rounds, tables, byes);
- `tournament`: the state and its operations.
"""

from engine.tournaments.formats import Format, TournamentConfig, TournamentError, table_sizes
from engine.tournaments.records import Bye, Entrant, Round, Table
from engine.tournaments.scoring import places_by_chips, table_points, win_points
from engine.tournaments.standings import Standing
from engine.tournaments.tournament import VERSION, Status, Tournament

__all__ = [
    "VERSION",
    "Bye",
    "Entrant",
    "Format",
    "Round",
    "Standing",
    "Status",
    "Table",
    "Tournament",
    "TournamentConfig",
    "TournamentError",
    "places_by_chips",
    "table_points",
    "table_sizes",
    "win_points",
]
