"""Red Dog's AI: bet by the odds its own view shows."""

from __future__ import annotations

import random

from engine.game import Action
from engine.games.red_dog.odds import PASS
from engine.games.red_dog.views import RedDogSeatView

__all__ = ["red_dog_ai"]


def red_dog_ai(view: RedDogSeatView, rng: random.Random) -> Action:
    """A Red Dog player that sees only its own seat's view.

    p is the chance of winning: the share of the cards it has not seen (not in its hand,
    not turned or shown this round) that its hand beats. A bet of b then wins b with chance
    p and loses b otherwise, so each chip is worth 2p - 1: the AI passes when p is at most
    one half and otherwise bets that edge, 2p - 1, of the most it may (at least 1 chip), so
    a hand that beats three cards in four bets half the pot and a sure thing bets all of it.
    It never risks more than the same share of its own stack (the Kelly bet), so a run of
    bad cards against a big pot does not break it. Betting the edge rather than the whole
    pot also keeps the pot alive for the rounds in which the others bet into it at worse
    odds (bench/red_dog_ai.py measures both).
    """
    del rng  # the policy is deterministic; the parameter keeps the common signature
    most = view.max_bet
    if view.seat not in view.to_act or most < 1 or view.unseen == 0:
        return PASS
    edge = 2 * view.beats / view.unseen - 1
    if edge <= 0:
        return PASS
    kelly = int(edge * view.stacks[view.seat])
    return Action("bet", (max(1, min(most, kelly, round(edge * most))),))
