"""Skill ratings: OpenSkill's Plackett–Luce model over a game's places, per server and game.

Why it is shaped like this:

* Plackett–Luce rates a whole finishing order at once (first, second, a shared third...),
  which is what our multi-player games produce; a head-to-head model would have to split a
  six-player game into made-up duels. The model and its parameters are the package's
  defaults: nothing of OpenSkill is re-implemented here, only which seats meet and how the
  result is shown.
* A rated entity is a person (`user:<id>`) or an AI level (`ai:<level>`, see
  `engine.ai_levels`), so games against AI seats count: the AI is an opponent with a rating
  like anyone else. Two AI seats of one level in one game are two opponents with the same
  rating; the level then takes the mean of the two seats' new ratings (it is one entity).
* The place rated is the recorded place: a points game's final standing, and for a chip game
  the session's net chips (`bot.core.game_records.record` ranks a cash table by them), so a
  chip game is rated once per session, not per deal.
* Shown is the conservative rating mu − 3 sigma (the skill the player is 99.7% likely to
  exceed), on a friendlier scale through OpenSkill's own `ordinal(alpha, target)`:
  40 × (mu − 3 sigma) + 1000. A newcomer (mu 25, sigma 25/3) shows 1000; an average player
  the model is sure of would show 2000. A rating climbs as the games make the model surer,
  which is the point of the conservative figure: one lucky game does not top the board.

The store (`bot.store.ratings`) reads the ratings before a game, calls `rate`, and writes
the new ones in the same transaction as the game's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

from engine.ai_levels import DEFAULT_LEVEL

MODEL = PlackettLuce()
Z = 3.0  # how many sigmas the conservative rating holds back
SCALE = 40.0  # alpha: the shown rating is SCALE × (mu − Z sigma) + BASE
BASE = 1000.0  # target: what a newcomer shows
RATED_AFTER = 5  # games: a board orders by rating by default once someone played this many


@dataclass(frozen=True)
class Skill:
    """An entity's rating: OpenSkill's mean and uncertainty."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The conservative rating on the shown scale (see the module's docstring).

        >>> Skill(MODEL.mu, MODEL.sigma).shown
        1000
        """
        rating = MODEL.rating(self.mu, self.sigma)
        return round(rating.ordinal(z=Z, alpha=SCALE, target=BASE))


def fresh() -> Skill:
    """What an entity never rated before starts with: the model's prior."""
    return Skill(MODEL.mu, MODEL.sigma)


def user_entity(user_id: int) -> str:
    return f"user:{user_id}"


def ai_entity(level: str = DEFAULT_LEVEL) -> str:
    return f"ai:{level}"


def user_of(entity: str) -> int | None:
    """The person an entity is, or None for an AI level.

    >>> user_of(user_entity(7)), user_of(ai_entity())
    (7, None)
    """
    return int(entity.removeprefix("user:")) if entity.startswith("user:") else None


def level_of(entity: str) -> str:
    """The AI level an AI entity is (`ai_entity`'s inverse)."""
    return entity.removeprefix("ai:")


def rate(seats: Sequence[tuple[str, int]], before: Mapping[str, Skill]) -> dict[str, Skill]:
    """The new rating of every entity at the game, from each seat's (entity, place).

    `before` holds the entities rated already (the others start `fresh`). A game with fewer
    than two entities teaches nothing (a solitaire, or AI seats of one level only): {}.

    >>> after = rate([("user:1", 1), ("user:2", 2)], {})
    >>> after["user:1"].mu > 25 > after["user:2"].mu
    True
    """
    if len({entity for entity, _ in seats}) < 2:
        return {}
    teams = [[MODEL.rating(*_skill(before.get(entity)))] for entity, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in seats])
    new: dict[str, list[Skill]] = {}
    for (entity, _), (rating,) in zip(seats, rated, strict=True):
        new.setdefault(entity, []).append(Skill(rating.mu, rating.sigma))
    return {entity: Skill(fmean(s.mu for s in skills), fmean(s.sigma for s in skills))
            for entity, skills in new.items()}


def _skill(skill: Skill | None) -> tuple[float, float]:
    known = skill or fresh()
    return known.mu, known.sigma


@dataclass(frozen=True)
class RatingRow:
    """One person on a game's board by rating, with their wins beside it."""

    rank: int
    user_id: int
    display_name: str
    skill: Skill
    games: int
    wins: int


@dataclass(frozen=True)
class PlayerRating:
    """A person's rating at one game, and what their last rated game did to it."""

    kind: str
    skill: Skill
    games: int
    last_change: int  # in shown points: the shown rating after the last game less before it
