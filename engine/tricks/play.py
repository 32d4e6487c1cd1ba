"""Trick play, shared by Poke, Poängpoker and Chicago.

The three games differ only in a few switches (`TrickRules`), so one set of functions
answers every question a game, its AI and the Discord buttons ask: which plays are legal,
why a card may not be played (the button shows that sentence when pressed), and who takes
the trick. A trick is the plays so far, in order: `(seat, cards)` pairs, the leader first.
A play is a tuple of cards: one card, or in Poke a led set of 2-4 equal ranks and the
follower's answer of as many cards.

Poängpoker: follow suit, and beat the best card of the led suit so far when you can.

>>> from engine.cards import parse_cards
>>> hand = parse_cards("9h Kh 2s")
>>> trick = [(0, parse_cards("Qh"))]
>>> why_illegal(hand, trick, POANGPOKER, parse_cards("9h"))
'You must beat the Q♥ when you can: play K♥.'
>>> why_illegal(hand, trick, CHICAGO, parse_cards("9h")) is None
True
>>> trick_winner([*trick, (1, parse_cards("Kh")), (2, parse_cards("As"))], POANGPOKER)
1

Poke: suits are irrelevant, a led pair counts as two tricks and falls only to a higher pair.

>>> trick = [(1, parse_cards("7c 7d"))]
>>> why_illegal(parse_cards("Ah 2c 9s"), trick, POKE, parse_cards("Ah"))
'A pair was led: play 2 cards.'
>>> trick_winner([*trick, (0, parse_cards("Ah Kh"))], POKE)
1
>>> trick_winner([*trick, (0, parse_cards("9h 9s"))], POKE)
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import Card, label_cards, rank_word
from engine.i18n import msg, msg_n

__all__ = [
    "CHICAGO",
    "POANGPOKER",
    "POKE",
    "Play",
    "TrickRules",
    "best_play",
    "describe_play",
    "is_set",
    "legal_plays",
    "set_name",
    "trick_winner",
    "why_illegal",
]

Play = tuple[Card, ...]
Trick = Sequence[tuple[int, Sequence[Card]]]


@dataclass(frozen=True)
class TrickRules:
    """The switches that tell the trick games apart.

    `sets`: a set of 2-4 equal ranks may be led as that many tricks (Poke); suits then play
    no part. `follow_suit`: a player holding the led suit must play it. `must_beat`: a
    player who can beat the best card of the led suit so far must do so.
    """

    sets: bool = False
    follow_suit: bool = False
    must_beat: bool = False


POKE = TrickRules(sets=True)
POANGPOKER = TrickRules(follow_suit=True, must_beat=True)
CHICAGO = TrickRules(follow_suit=True)

_SET_NAMES = {1: msg("a single card"), 2: msg("a pair"), 3: msg("three of a kind"),
              4: msg("four of a kind")}
_SET_LED = {1: msg("A single card was led: play one card."),
            2: msg("A pair was led: play 2 cards."),
            3: msg("Three of a kind was led: play 3 cards."),
            4: msg("Four of a kind was led: play 4 cards.")}


def set_name(size: int) -> str:
    """What a led set of `size` cards is called ("a pair")."""
    return _SET_NAMES.get(size) or msg_n("{n} card", "{n} cards", size)


def is_set(cards: Sequence[Card]) -> bool:
    """One to four cards of a single rank: what Poke lets a player lead together."""
    return 1 <= len(cards) <= 4 and len({card.rank for card in cards}) == 1


def set_words(cards: Sequence[Card]) -> str:
    """A led set in words without its cards ("the pair of kings"), for a button.

    >>> from engine.cards import parse_cards
    >>> set_words(parse_cards("Kh Ks"))
    'the pair of kings'
    """
    rank = cards[0].rank
    assert rank is not None and is_set(cards) and len(cards) > 1
    name = {2: msg("the pair of {ranks}"), 3: msg("the three of {ranks}"),
            4: msg("the four of {ranks}")}[len(cards)]
    assert name.msgid is not None
    return msg(name.msgid, ranks=rank_word(rank, plural=True))


def describe_play(cards: Sequence[Card]) -> str:
    """A play in words: "K♥", or "the pair of kings (K♥ K♠)" for a set.

    >>> from engine.cards import parse_cards
    >>> describe_play(parse_cards("Kh Ks"))
    'the pair of kings (K♥ K♠)'
    """
    if len(cards) == 1:
        return cards[0].label
    if is_set(cards):
        rank = cards[0].rank
        assert rank is not None
        name = {2: msg("the pair of {ranks} ({cards})"), 3: msg("the three of {ranks} ({cards})"),
                4: msg("the four of {ranks} ({cards})")}[len(cards)]
        assert name.msgid is not None
        return msg(name.msgid, ranks=rank_word(rank, plural=True), cards=label_cards(cards))
    return label_cards(cards)


def _beats(
    play: Sequence[Card], best: Sequence[Card], led: Sequence[Card], rules: TrickRules
) -> bool:
    if rules.sets:
        return (
            is_set(play)
            and len(play) == len(best)
            and play[0].rank is not None
            and best[0].rank is not None
            and play[0].rank > best[0].rank
        )
    card, top = play[0], best[0]
    return card.suit == led[0].suit and (card.rank or 0) > (top.rank or 0)


def best_play(trick: Trick, rules: TrickRules) -> tuple[int, Play]:
    """The play winning the trick so far and its seat; ties stay with the earlier play,
    which is how the leader wins ties."""
    if not trick:
        raise ValueError("an empty trick has no best play")
    seat, led = trick[0]
    best = (seat, tuple(led))
    for other, play in trick[1:]:
        if _beats(play, best[1], led, rules):
            best = (other, tuple(play))
    return best


def trick_winner(trick: Trick, rules: TrickRules) -> int:
    """The seat that takes the trick (or is taking it, if not everyone has played)."""
    return best_play(trick, rules)[0]


def why_illegal(
    hand: Sequence[Card], trick: Trick, rules: TrickRules, play: Sequence[Card]
) -> str | None:
    """Why `play` may not be made from `hand` to `trick`, in a sentence for the player;
    None when it is legal."""
    play = tuple(play)
    if not play:
        return msg("Choose a card to play.")
    for card in play:
        if card not in hand:
            return msg("You don't hold {card}.", card=card.label)
    if len(set(play)) != len(play):
        return msg("Each card can be played only once.")
    if not trick:
        if rules.sets:
            if not is_set(play):
                return msg(
                    "Only cards of one rank can be led together: a pair, three or four of a kind."
                )
            return None
        return None if len(play) == 1 else msg("Play one card.")
    led = trick[0][1]
    if rules.sets:
        if len(play) != len(led):
            return _SET_LED.get(len(led)) or msg_n(
                "{n} card was led: play {n} card.", "{n} cards were led: play {n} cards.",
                len(led))
        return None
    if len(play) != 1:
        return msg("Play one card.")
    card = play[0]
    suit = led[0].suit
    in_suit = sorted((c for c in hand if c.suit == suit), key=Card.sort_key)
    if rules.must_beat and in_suit:
        top = best_play(trick, rules)[1][0]
        higher = [c for c in sorted(in_suit, key=Card.sort_key) if (c.rank or 0) > (top.rank or 0)]
        if higher and card not in higher:
            return msg("You must beat the {card} when you can: play {cards}.", card=top.label,
                       cards=_either(higher))
    if rules.follow_suit and in_suit and card.suit != suit:
        assert suit is not None
        return msg("You must follow suit: play a {suit} ({cards}).", suit=suit.symbol,
                   cards=_either(in_suit))
    return None


def _either(cards: Sequence[Card]) -> str:
    labels = [card.label for card in cards]
    if len(labels) == 1:
        return labels[0]
    return msg("{cards} or {last}", cards=", ".join(labels[:-1]), last=labels[-1])


def legal_plays(hand: Sequence[Card], trick: Trick, rules: TrickRules) -> list[Play]:
    """Every legal play, singles first, in a stable order (by rank, then suit).

    In Poke a led set may be answered by any cards of the right number, and a set may be
    led from a bigger one, so every combination is listed.

    >>> from engine.cards import parse_cards
    >>> [describe_play(p) for p in legal_plays(parse_cards("Kh Ks 2c"), [], POKE)]
    ['2♣', 'K♥', 'K♠', 'the pair of kings (K♥ K♠)']
    """
    cards = sorted(hand, key=Card.sort_key)
    if rules.sets:
        if trick:
            size = len(trick[0][1])
            return [tuple(combo) for combo in combinations(cards, size)]
        plays: list[Play] = [(card,) for card in cards]
        by_rank = Counter(card.rank for card in cards)
        for rank, count in sorted(by_rank.items(), key=lambda item: item[0] or 0):
            same = [card for card in cards if card.rank == rank]
            for size in range(2, count + 1):
                plays.extend(tuple(combo) for combo in combinations(same, size))
        return plays
    return [(card,) for card in cards if why_illegal(cards, trick, rules, (card,)) is None]
