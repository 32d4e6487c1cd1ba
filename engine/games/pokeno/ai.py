"""The Po-Ke-No AI: builds towards spaces it can still make correct, weighing each space's
points by a rough chance of completing it, and calls "full board" when its board is complete
and every space is correct (it sees its own board, so "likely correct" is certain).

It sees only its seat's view. Every decision is one step of the turn:

1. call "full board" when allowed and all ten spaces are correct;
2. place the set of cards (on one space) that raises the board's expected points most, as
   long as the gain is worth the cards (jokers cost extra: they are kept for big spaces);
3. discard the least useful cards so that the draw brings three new ones (multiplayer), or,
   in solitaire, when no placement is better than the discard's -10;
4. end the turn.

The expected points of a space are its points times a chance: 1 when complete and correct,
0 when its cards can no longer be read as exactly its category (`feasible`), else a factor
per missing card that depends on how specific the missing cards are (any other rank for the
no-pair space, a suit for the flush, a rank for the sets and straights, one exact card for
the straight flushes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import Card, parse_cards
from engine.game import Action
from engine.games.pokeno.scoring import SPACES
from engine.games.pokeno.spaces import Space, is_correct
from engine.games.pokeno.views import PokenoSeatView

__all__ = ["expected", "feasible", "pokeno_ai"]

# The chance factor per missing card, per space, and for a space's first card.
_PER_CARD = {
    Space.NO_PAIR: 0.95, Space.PAIR: 0.6, Space.TWO_PAIR: 0.65, Space.THREE_OF_A_KIND: 0.6,
    Space.STRAIGHT: 0.62, Space.FLUSH: 0.85, Space.FULL_HOUSE: 0.62,
    Space.FOUR_OF_A_KIND: 0.6, Space.STRAIGHT_FLUSH: 0.35, Space.ROYAL_FLUSH: 0.3,
}
_FIRST = {Space.ROYAL_FLUSH: 0.38, Space.NO_PAIR: 1.0}
JOKER_COST = 4.0
SOLITAIRE_SCALE = 0.8  # one deck and one pass: the missing cards are scarcer
SOLITAIRE_PLACE = 20.0  # a card placed rather than discarded: +10, and the board fills sooner
HAND_KEEP = 4  # multiplayer: cards kept in hand after a turn, the rest discarded to draw
PLACE_THRESHOLD = 1.0  # the least gain worth committing cards to a space
URGENT_DECK = 12  # fewer cards in the deck than this: finish spaces now


def _fits_window(ranks: Sequence[int]) -> bool:
    if not ranks:
        return True
    for low in range(1, 11):
        window = set(range(low, low + 5))
        if all(r in window or (r == 14 and low == 1) for r in ranks):
            return True
    return False


def feasible(space: Space, cards: Sequence[Card]) -> bool:
    """Whether some completion of these cards reads as exactly the space's category."""
    if len(cards) > space.size:
        return False
    if len(cards) == space.size:
        return is_correct(space, cards)
    ranks = [card.rank for card in cards if card.rank is not None]
    suits = {card.suit for card in cards if card.suit is not None}
    jokers = len(cards) - len(ranks)
    counts = Counter(ranks)
    most = max(counts.values(), default=0)
    distinct = len(counts) == len(ranks)
    if space is Space.NO_PAIR:
        return distinct
    if space in (Space.PAIR, Space.THREE_OF_A_KIND, Space.FOUR_OF_A_KIND):
        return len(counts) <= 1
    if space is Space.TWO_PAIR:
        return len(counts) <= 2 and most <= 2
    if space is Space.FULL_HOUSE:
        return len(counts) <= 2 and most <= 3
    if space is Space.FLUSH:
        return len(suits) <= 1
    if space is Space.STRAIGHT:
        return distinct and _fits_window(ranks)
    if space is Space.STRAIGHT_FLUSH:
        return len(suits) <= 1 and distinct and _fits_window(ranks)
    return jokers == 0 and len(suits) <= 1 and distinct and all(r >= 10 for r in ranks)


def chance(space: Space, cards: Sequence[Card], scale: float = 1.0) -> float:
    if not feasible(space, cards):
        return 0.0
    need = space.size - len(cards)
    if need == 0:
        return 1.0
    per = _PER_CARD[space] * scale
    if not cards:
        return _FIRST.get(space, 1.0) * per ** (need - 1)
    return float(per**need)


def expected(space: Space, cards: Sequence[Card], scale: float = 1.0) -> float:
    """The space's points weighted by the chance of completing it correctly (with a touch
    for high cards, which win ties of category)."""
    value = space.points * chance(space, cards, scale)
    if value:
        ranks = [card.rank or 14 for card in cards]
        value += 0.01 * sum(ranks) / max(len(ranks), 1)
    return value


def _subsets(hand: Sequence[Card], space: Space, base: Sequence[Card], room: int
             ) -> list[tuple[Card, ...]]:
    """Sets of hand cards that keep the space feasible (identical cards tried once)."""
    ordered = sorted(hand, key=Card.sort_key)
    found: list[tuple[Card, ...]] = []

    def walk(start: int, chosen: list[Card]) -> None:
        tried: set[Card] = set()
        for i in range(start, len(ordered)):
            card = ordered[i]
            if card in tried:
                continue
            tried.add(card)
            more = [*chosen, card]
            if not feasible(space, [*base, *more]):
                continue
            found.append(tuple(more))
            if len(more) < room:
                walk(i + 1, more)

    walk(0, [])
    return found


def _moves(hand: Sequence[Card], board: Sequence[Sequence[Card]], limit: int | None,
           scale: float, bonus_per_card: float
           ) -> tuple[list[tuple[float, int, tuple[Card, ...]]], dict[Card, float]]:
    """Every useful placement (gain, space, cards), best first, and each card's best gain."""
    moves: list[tuple[float, int, tuple[Card, ...]]] = []
    use: dict[Card, float] = {}
    for i, space in enumerate(SPACES):
        room = space.size - len(board[i])
        if limit is not None:
            room = min(room, limit)
        if room <= 0:
            continue
        before = expected(space, board[i], scale)
        for cards in _subsets(hand, space, board[i], room):
            after = expected(space, [*board[i], *cards], scale)
            jokers = sum(card.is_wild for card in cards)
            gain = after - before - JOKER_COST * jokers + bonus_per_card * len(cards)
            if len(board[i]) + len(cards) == space.size:
                gain += 0.5  # a finished space is a safe one
            moves.append((gain, i, cards))
            for card in cards:
                use[card] = max(use.get(card, gain), gain)
    moves.sort(key=lambda move: (-move[0], move[1], [str(c) for c in move[2]]))
    return moves, use


def _least_useful(hand: Sequence[Card], use: dict[Card, float], count: int) -> list[Card]:
    def worth(card: Card) -> tuple[float, int]:
        if card.is_wild:
            return (1000.0, 0)
        return (use.get(card, -100.0), card.rank or 0)

    return sorted(hand, key=worth)[:count]


def _all_correct(board: Sequence[Sequence[Card]]) -> bool:
    return all(is_correct(space, board[i]) for i, space in enumerate(SPACES))


def pokeno_ai(view: PokenoSeatView) -> Action:
    """The next step of the AI's turn, from its seat's view (a PokenoSeatView)."""
    hand = parse_cards(list(view.hand))
    board = [parse_cards(list(cards)) for cards in view.board]
    solitaire = view.kind == "pokeno_solitaire"
    if solitaire:
        return _solitaire_step(view, hand, board)
    if view.can_call and _all_correct(board):
        return Action("call")
    last_turn = view.caller is not None
    deck = view.deck
    filled = sum(len(cards) for cards in board)
    urgent = last_turn or deck < URGENT_DECK or filled >= 30
    moves, use = _moves(hand, board, None, 1.0, 0.4 if urgent else 0.0)
    threshold = 0.0 if urgent else PLACE_THRESHOLD
    if moves and moves[0][0] > threshold:
        _, index, cards = moves[0]
        return Action("place", (SPACES[index].name.lower(), *map(str, cards)))
    if last_turn:
        return Action("end")
    room = sum(space.size - len(board[i]) for i, space in enumerate(SPACES))
    spare = len(hand) - HAND_KEEP
    if room == 0 and not _all_correct(board):
        spare = min(len(hand), 3)  # a wrong full board: cycle the deck to the round's end
    if spare > 0:
        return Action("discard", tuple(map(str, _least_useful(hand, use, spare))))
    return Action("end")


def _solitaire_step(view: PokenoSeatView, hand: list[Card], board: list[list[Card]]) -> Action:
    played = sum(len(step.get("cards", ())) for step in view.steps)
    left = 3 - played
    complete = all(len(board[i]) == space.size for i, space in enumerate(SPACES))
    if left <= 0 or complete or not hand:
        return Action("end")
    moves, use = _moves(hand, board, left, SOLITAIRE_SCALE, SOLITAIRE_PLACE)
    best_spoil: tuple[float, int, Card] | None = None
    for i, space in enumerate(SPACES):  # a card on a space it spoils, rather than -10
        if len(board[i]) >= space.size:
            continue
        loss = expected(space, board[i], SOLITAIRE_SCALE)
        card = _least_useful(hand, use, 1)[0]
        if feasible(space, [*board[i], card]):
            continue
        gain = SOLITAIRE_PLACE - loss
        if best_spoil is None or gain > best_spoil[0]:
            best_spoil = (gain, i, card)
    if moves and moves[0][0] > 0 and (best_spoil is None or moves[0][0] >= best_spoil[0]):
        _, index, cards = moves[0]
        return Action("place", (SPACES[index].name.lower(), *map(str, cards)))
    if best_spoil is not None and best_spoil[0] > 0:
        _, index, card = best_spoil
        return Action("place", (SPACES[index].name.lower(), str(card)))
    return Action("discard", (str(_least_useful(hand, use, 1)[0]),))
