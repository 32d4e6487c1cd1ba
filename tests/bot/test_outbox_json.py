"""The outbox's typed messages and the JSON its rows hold (`bot/core/outbox_json.py`).

Rows outlive the code that saved them: after an upgrade the sender reads rows the code of
before wrote. So the format is fixed: the literal rows below are as the code saved them
before the messages were typed (made with it, byte for byte), each must load into the
message it meant and be written back exactly so; and every message survives the trip
through JSON text, whatever its fields hold.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.outbox import (
    Answered,
    Edit,
    Embed,
    OutboxMessage,
    Picture,
    Post,
    PromptButtons,
    Reply,
    Strip,
    TableButtons,
    Turn,
    Upsert,
    ViewSpec,
    destination,
    pinged,
)
from bot.core.outbox_json import message_from_json, message_to_json
from bot.discord.stale_rows import queue_of
from engine.game import Action, CardPick, Choice, Event, Prompt, TextAsk

SAVED = [
    # A seat's prompt by DM: its buttons, a picture to draw, a fallback, a clock, a step.
    '{"op":"post","channel":null,"user":7,"content":"Din tur","view":{"type":"prompt",'
    '"table":"ab12","seat":1,"stamp":"3-1","prompt":{"text":"Your move","choices":[{"type":'
    '"choice","label":"Fold","action":["fold",[]],"style":"danger","disabled_reason":null},'
    '{"type":"pick","label":"Discard","action_name":"discard","cards":["Ah","Kd"],'
    '"min_cards":0,"max_cards":2,"labels":["A♥","K♦"]},{"type":"text","label":"Word",'
    '"action_name":"word","field_label":"Your word","placeholder":"zebra","min_length":1,'
    '"max_length":12,"args":["x"]}]},"locale":"sv"},"embeds":[],"picture":{"kind":"sppoker",'
    '"events":[{"text":"Ann reveals","seat":null,"kind":"reveal","data":{"hand":2,'
    '"cards":["Ah"]}}],"names":["Ann","Bob"],"locale":"sv"},"ref":"prompt:1",'
    '"previous":"strip","fallback":"<@7> …","table_channel":5,"clocks":["last-1-1"],"step":4}',
    # A closed-DM seat's ping, with the turn it may become in place.
    '{"op":"post","channel":5,"user":null,"content":"<@7>, your turn","view":null,'
    '"embeds":[],"picture":null,"ref":null,"previous":"keep","fallback":null,'
    '"table_channel":null,"clocks":[],"pings":[7],"turn":{"seat":1,"user":7,'
    '"content":"hand","view":{"type":"prompt","table":"ab12","seat":1,"stamp":"3-1",'
    '"prompt":null,"locale":"sv"}}}',
    # A boxed event in the channel.
    '{"op":"post","channel":5,"user":null,"content":"before","view":{"type":"board",'
    '"table":"ab12","locale":"sv"},"embeds":[{"title":"T","description":"D",'
    '"color":2067276}],"picture":null,"ref":null,"previous":"keep","fallback":null,'
    '"table_channel":null,"clocks":[]}',
    # The board moved to the bottom, between deals, pinging two closed-DM players.
    '{"op":"post","channel":5,"user":null,"content":"board","view":{"type":"cash",'
    '"table":"ab12","locale":"sv"},"embeds":[],"picture":null,"ref":"board",'
    '"previous":"delete","fallback":null,"table_channel":null,"clocks":[],"pings":[7,8]}',
    '{"op":"upsert","ref":"board","channel":5,"content":"live","view":{"type":"board",'
    '"table":"ab12","locale":"sv"},"pings":[8]}',
    '{"op":"upsert","ref":"board","channel":5,"content":"live","view":null}',
    '{"op":"edit","ref":"board","content":"final","view":{"type":"replay","table":"ab12",'
    '"locale":"sv"}}',
    '{"op":"edit","ref":"lobby","content":"closed","view":null}',
    '{"op":"strip","ref":"prompt:2"}',
    '{"op":"answered","ref":"prompt:1","step":9}',
    # An AFK warning by DM.
    '{"op":"post","channel":null,"user":7,"content":"warn","view":null,"embeds":[],'
    '"picture":null,"ref":null,"previous":"keep","fallback":"fb","table_channel":5,'
    '"clocks":[]}',
]

# Rows of the click's answer on the outbox (issue 24): the answer, and its delivered mark
# naming the message answered on. Fixed from here on, as the rows above are.
REPLIES = [
    '{"op":"reply","ref":"prompt:1","step":9,"user":7,"content":"Du valde 3","view":'
    '{"type":"prompt","table":"ab12","seat":1,"stamp":"9-1","prompt":null,"locale":"sv"},'
    '"picture":{"kind":"sppoker","events":[],"names":["Ann","Bob"],"locale":"sv"}}',
    '{"op":"reply","ref":"prompt:0","step":3,"user":7,"content":"x","view":null,'
    '"picture":null}',
    '{"op":"answered","ref":"prompt:1","step":9,"message":123456789012345678}',
]


def compact(data: dict[str, Any]) -> str:
    """As the store writes a row (`bot.store.outbox._compact`), non-ASCII kept as text so
    the literals above stay readable."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("saved", [*SAVED, *REPLIES])
def test_a_row_saved_before_the_messages_were_typed_loads_and_is_written_back_alike(
        saved: str) -> None:
    message = message_from_json(json.loads(saved))
    assert compact(message_to_json(message)) == saved


def test_a_saved_prompt_loads_as_the_message_it_meant() -> None:
    prompt = message_from_json(json.loads(SAVED[0]))
    assert prompt == Post(
        user=7, content="Din tur",
        view=PromptButtons("ab12", 1, "3-1", Prompt("Your move", (
            Choice("Fold", Action("fold", ()), "danger", None),
            CardPick("Discard", "discard", ("Ah", "Kd"), 0, 2, ("A♥", "K♦")),
            TextAsk("Word", "word", "Your word", "zebra", 1, 12, ("x",)))), "sv"),
        picture=Picture("sppoker", (Event("Ann reveals", None, "reveal",
                                          {"hand": 2, "cards": ["Ah"]}),), ("Ann", "Bob"), "sv"),
        ref="prompt:1", previous="strip", fallback="<@7> …", table_channel=5,
        clocks=("last-1-1",), step=4)
    assert (destination(prompt), pinged(prompt), pinged(prompt, fallback=True)) == \
        ("prompt:1", [], [7])
    ping = message_from_json(json.loads(SAVED[1]))
    assert isinstance(ping, Post) and ping.turn == Turn(
        seat=1, user=7, content="hand", view=PromptButtons("ab12", 1, "3-1", None, "sv"))
    assert (destination(ping), queue_of(ping), pinged(ping)) == ("channel", "prompt:1", [7])
    assert message_from_json(json.loads(SAVED[9])) == Answered(1, 9)


def test_a_saved_answer_loads_as_the_reply_it_meant_and_its_mark_names_the_message() -> None:
    """A click's answer waits in its seat's prompt queue; an `answered` row of before (no
    message) is a delivered answer whose message nobody said."""
    reply = message_from_json(json.loads(REPLIES[0]))
    assert reply == Reply(seat=1, step=9, user=7, content="Du valde 3",
                          view=PromptButtons("ab12", 1, "9-1", None, "sv"),
                          picture=Picture("sppoker", (), ("Ann", "Bob"), "sv"))
    assert (destination(reply), queue_of(reply), pinged(reply)) == ("prompt:1", "prompt:1", [])
    assert message_from_json(json.loads(REPLIES[2])) == Answered(1, 9, 123456789012345678)
    before = message_from_json(json.loads(SAVED[9]))
    assert isinstance(before, Answered) and before.message is None


def test_rows_of_older_code_load_with_what_they_left_out() -> None:
    """A picture written before pictures said their language is drawn in English (None);
    a post without a `previous` keeps the message its ref named."""
    old = {"op": "post", "channel": 5, "user": None, "content": "x",
           "picture": {"kind": "sppoker", "events": [], "names": ["Ann"]}, "ref": "board"}
    assert message_from_json(old) == Post(
        channel=5, content="x", picture=Picture("sppoker", (), ("Ann",), None), ref="board")


@pytest.mark.parametrize("row", [
    {"op": "delete", "ref": "board"},
    {"op": "answered", "ref": "board", "step": 1},
    {"op": "reply", "ref": "board", "step": 1, "user": 7, "content": "x", "view": None},
    {"op": "reply", "ref": "prompt:1", "step": 1, "user": 7, "content": "x",
     "view": {"type": "board", "table": "ab12", "locale": "sv"}},
    {"op": "post", "channel": 5, "user": None, "content": "x", "previous": "move"},
    {"op": "post", "channel": None, "user": None, "content": "x"},
])
def test_a_row_that_holds_no_message_is_refused(row: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        message_from_json(row)


# --- every message, through JSON text and back -------------------------------------------

ids = st.integers(min_value=0, max_value=2**63 - 1)
seats = st.integers(min_value=0, max_value=9)
texts = st.text(max_size=12)
locales = st.sampled_from(["en", "sv"])
refs = st.one_of(st.sampled_from(["board", "lobby"]), seats.map(lambda seat: f"prompt:{seat}"))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
choices = st.one_of(
    st.builds(Choice, texts, st.builds(Action, texts, st.tuples(texts)),
              st.sampled_from(["primary", "secondary", "success", "danger"]),
              st.none() | texts, st.booleans()),
    st.builds(CardPick, texts, texts, st.lists(texts, max_size=3).map(tuple),
              st.integers(0, 3), st.integers(0, 3), st.lists(texts, max_size=3).map(tuple)),
    st.builds(TextAsk, texts, texts, texts, texts, st.integers(0, 5), st.integers(0, 50),
              st.lists(texts, max_size=2).map(tuple)),
)
prompts = st.builds(Prompt, texts, st.lists(choices, max_size=3).map(tuple))
prompt_views = st.builds(PromptButtons, texts, seats, texts, st.none() | prompts, locales)
views: st.SearchStrategy[ViewSpec] = st.one_of(
    st.builds(TableButtons, st.sampled_from(["board", "cash", "lobby", "replay"]), texts,
              locales),
    prompt_views,
)
pictures = st.builds(
    Picture, texts,
    st.lists(st.builds(Event, texts, st.none() | seats, texts,
                       st.dictionaries(texts, json_values, max_size=3)), max_size=3).map(tuple),
    st.lists(texts, max_size=3).map(tuple), st.none() | locales)
embeds = st.builds(Embed, texts, texts, st.integers(0, 0xFFFFFF), st.none() | st.text(min_size=1))
turns = st.builds(Turn, seat=seats, user=ids, content=texts, view=prompt_views)


@st.composite
def posts(draw: st.DrawFn) -> Post:
    to_user = draw(st.booleans())
    return Post(
        channel=None if to_user else draw(ids), user=draw(ids) if to_user else None,
        content=draw(texts), view=draw(st.none() | views),
        embeds=tuple(draw(st.lists(embeds, max_size=2))), picture=draw(st.none() | pictures),
        ref=draw(st.none() | refs), previous=draw(st.sampled_from(["delete", "strip", "keep"])),
        fallback=draw(st.none() | texts), table_channel=draw(st.none() | ids),
        clocks=tuple(draw(st.lists(texts, max_size=2))), step=draw(st.none() | ids),
        pings=tuple(draw(st.lists(ids, max_size=2))), turn=draw(st.none() | turns))


messages: st.SearchStrategy[OutboxMessage] = st.one_of(
    posts(),
    st.builds(Edit, refs, texts, st.none() | views),
    st.builds(Upsert, ref=refs, channel=ids, content=texts, view=st.none() | views,
              pings=st.lists(ids, max_size=2).map(tuple),
              embeds=st.lists(embeds, max_size=2).map(tuple), picture=st.none() | pictures),
    st.builds(Strip, refs),
    st.builds(Answered, seats, ids, st.none() | ids),
    st.builds(Reply, seat=seats, step=ids, user=ids, content=texts,
              view=st.none() | prompt_views, picture=st.none() | pictures),
)


@given(messages)
def test_every_message_comes_back_from_its_row_as_it_was(message: OutboxMessage) -> None:
    row = compact(message_to_json(message))  # the text the store keeps
    assert message_from_json(json.loads(row)) == message
