"""Where a move's requests against Discord's global limit go, as bench/load.py names them
(issue 27: `global_requests_per_move_by_kind` in bench/scale.py's report), and that a phase's
count is read by time, so the loopback dropping its oldest records mid-run changes nothing."""

from __future__ import annotations

from bench.load import Phase, count_global, request_kind
from loopback.models import DM, Channel, RequestRecord

GUILD_CHANNEL, DM_CHANNEL = 11, 22
CHANNELS = {GUILD_CHANNEL: Channel(GUILD_CHANNEL, "t0001", guild_id=5),
            DM_CHANNEL: Channel(DM_CHANNEL, "", type=DM, recipient_id=7)}
BOARD = "**Sppoker** — H0001, G0001\n…\nYour cards come by DM; **Show my hand** shows them."


def record(method: str, path: str, kind: str, body: object = None,
           files: list[str] | None = None, at: float = 0.0, status: int = 200) -> RequestRecord:
    return RequestRecord(method, path, status, body, files or [], at, kind)


def post(channel: int, content: str, files: list[str] | None = None,
         pings: list[str] | None = None) -> RequestRecord:
    body: dict[str, object] = {"content": content}
    if pings:
        body["allowed_mentions"] = {"users": pings}
    return record("POST", f"/channels/{channel}/messages", "message_create", body, files)


def test_each_request_is_named_for_what_it_did() -> None:
    named = {
        "board_post": post(GUILD_CHANNEL, BOARD),
        "narration_post_with_picture": post(GUILD_CHANNEL, "G0001 has declared (2 of 2).",
                                            files=["reveal.png"]),
        "narration_post": post(GUILD_CHANNEL, "H0001 leaves the table."),
        "channel_ping": post(GUILD_CHANNEL, "<@7>, your turn", pings=["7"]),
        "dm_post": post(DM_CHANNEL, "**Sppoker** — you are **G0001**"),
        "dm_post_with_picture": post(DM_CHANNEL, "Your hand", files=["hand.png"]),
        "board_edit": record("PATCH", f"/channels/{GUILD_CHANNEL}/messages/3", "message_edit",
                             {"content": BOARD}),
        "dm_edit": record("PATCH", f"/channels/{DM_CHANNEL}/messages/4", "message_edit",
                          {"components": []}),
        "board_delete": record("DELETE", f"/channels/{GUILD_CHANNEL}/messages/3",
                               "message_delete"),
        "dm_delete": record("DELETE", f"/channels/{DM_CHANNEL}/messages/4", "message_delete"),
        "dm_open": record("POST", "/users/@me/channels", "dm_open", {"recipient_id": 7}),
        "read_message_get": record("GET", f"/channels/{GUILD_CHANNEL}/messages/3",
                                   "message_get"),
        "typing": record("POST", f"/channels/{GUILD_CHANNEL}/typing", "typing"),
    }
    assert {name: request_kind(found, CHANNELS) for name, found in named.items()} == {
        name: name for name in named}


def test_a_phase_counts_its_requests_by_time_and_leaves_out_the_exempt() -> None:
    phase = Phase("paced", {})
    before = record("PATCH", f"/channels/{GUILD_CHANNEL}/messages/3", "message_edit", at=9.0)
    inside = [
        record("PATCH", f"/channels/{GUILD_CHANNEL}/messages/3", "message_edit", at=10.0),
        record("POST", "/interactions/1/tok/callback", "interaction_callback", at=10.5),
        record("PATCH", "/webhooks/1/tok/messages/@original", "followup_edit", at=11.0),
        record("POST", f"/channels/{DM_CHANNEL}/messages", "message_create", at=11.5,
               status=429),  # refused: sent again, and counted then
        record("POST", f"/channels/{DM_CHANNEL}/messages", "message_create", {}, at=12.0),
    ]
    after = record("PATCH", f"/channels/{GUILD_CHANNEL}/messages/3", "message_edit", at=13.0)
    # The records as the loopback holds them after dropping its oldest ones: only the
    # times say which are the phase's.
    assert count_global(phase, [*inside, after], CHANNELS, 10.0, 12.0) == 2
    assert dict(phase.global_by_kind) == {"board_edit": 1, "dm_post": 1}
    assert count_global(phase, [before, *inside, after], CHANNELS, 12.5, 14.0) == 1
    assert phase.global_by_kind["board_edit"] == 2
