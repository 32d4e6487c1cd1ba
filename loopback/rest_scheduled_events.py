"""REST routes of a guild's scheduled events: create, read, change, delete, and who is
interested.

Members mark themselves interested in Discord's own client; a test does it with
`mark_interested`, which the bot hears as GUILD_SCHEDULED_EVENT_USER_ADD. What Discord
refuses is refused here too: an event in the past or ending before it starts, an external
event without a place or an end, a status change Discord does not allow (scheduled → active
→ completed, or scheduled → canceled), and all of it without Create Events.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aiohttp import web

from loopback import errors
from loopback.errors import DiscordError, FormErrors
from loopback.http_util import json_response, no_content, read_body, snowflake
from loopback.models import Guild, ScheduledEvent, User
from loopback.payloads import member_permissions, scheduled_event_payload, user_payload
from loopback.state import GUILD_SCHEDULED_EVENTS, LoopbackState

CREATE_EVENTS, MANAGE_EVENTS = 1 << 44, 1 << 33
STAGE, VOICE, EXTERNAL = 1, 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
# The status changes Discord allows; any other is refused.
MOVES = {(SCHEDULED, ACTIVE), (SCHEDULED, CANCELED), (ACTIVE, COMPLETED)}


def unknown_event() -> DiscordError:
    return DiscordError(404, 10070, "Unknown Guild Scheduled Event")


def _moment(form: FormErrors, field: str, value: Any) -> float | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value)).timestamp()
    except ValueError:
        form.add(field, "DATE_TIME_TYPE_PARSE", f"Could not parse {value}. Should be ISO8601.")
        return None


class ScheduledEventRoutes:
    def __init__(self, state: LoopbackState) -> None:
        self.state = state

    def register(self, router: web.UrlDispatcher, base: str) -> None:
        add = router.add_route
        events = f"{base}/guilds/{{guild_id}}/scheduled-events"
        one = f"{events}/{{event_id}}"
        add("GET", events, self.list)
        add("POST", events, self.create)
        add("GET", one, self.get)
        add("PATCH", one, self.edit)
        add("DELETE", one, self.delete)
        add("GET", f"{one}/users", self.users)

    def _guild(self, request: web.Request) -> Guild:
        guild = self.state.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise errors.unknown("Guild")
        return guild

    def _managing(self, request: web.Request) -> Guild:
        guild = self._guild(request)
        if not member_permissions(guild, self.state.bot) & (CREATE_EVENTS | MANAGE_EVENTS):
            raise DiscordError(403, 50013, "Missing Permissions")
        return guild

    def _event(self, request: web.Request, guild: Guild) -> ScheduledEvent:
        event = self.state.scheduled_events.get(snowflake(request, "event_id"))
        if event is None or event.deleted or event.guild_id != guild.id:
            raise unknown_event()
        return event

    async def list(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([
            scheduled_event_payload(self.state, event)
            for event in self.state.scheduled_events.values()
            if event.guild_id == guild.id and not event.deleted])

    async def get(self, request: web.Request) -> web.Response:
        event = self._event(request, self._guild(request))
        return json_response(scheduled_event_payload(self.state, event))

    async def create(self, request: web.Request) -> web.Response:
        guild = self._managing(request)
        payload, _ = await read_body(request)
        body = payload or {}
        form = FormErrors()
        form.required("name", body.get("name"))
        form.max_length("name", body.get("name"), 100)
        form.max_length("description", body.get("description"), 1000)
        form.required("scheduled_start_time", body.get("scheduled_start_time"))
        if body.get("privacy_level", 2) != 2:
            form.add("privacy_level", "BASE_TYPE_CHOICES", "Value must be one of {2}.")
        kind = body.get("entity_type")
        if kind not in (STAGE, VOICE, EXTERNAL):
            form.add("entity_type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
        event = ScheduledEvent(
            id=self.state.ids.next(), guild_id=guild.id, creator_id=self.state.bot.id,
            name=str(body.get("name") or ""), entity_type=int(kind or 0),
            scheduled_start_time=_moment(form, "scheduled_start_time",
                                         body.get("scheduled_start_time")) or 0.0,
            description=body.get("description"),
        )
        self._place(form, event, body)
        self._times(form, event, body)
        form.raise_if_any()
        self.state.scheduled_events[event.id] = event
        self._announce("GUILD_SCHEDULED_EVENT_CREATE", event)
        return json_response(scheduled_event_payload(self.state, event))

    def _place(self, form: FormErrors, event: ScheduledEvent, body: dict[str, Any]) -> None:
        """Where it happens: a place's name for an external event, else a voice or stage
        channel, which the loopback's guilds do not have."""
        metadata = body.get("entity_metadata") or {}
        if event.entity_type == EXTERNAL:
            location = metadata.get("location") if "entity_metadata" in body else event.location
            form.required("entity_metadata.location", location)
            form.max_length("entity_metadata.location", location, 100)
            if body.get("channel_id") is not None:
                form.add("channel_id", "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED",
                         "An external event cannot have a channel.")
            event.location = location
        elif event.entity_type in (STAGE, VOICE):
            channel = body.get("channel_id")
            known = self.state.channels.get(int(str(channel))) if str(channel).isdigit() else None
            if known is None or known.type not in (2, 13):
                form.add("channel_id", "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL",
                         "The channel must be a voice or stage channel of this guild.")

    def _times(self, form: FormErrors, event: ScheduledEvent, body: dict[str, Any]) -> None:
        if "scheduled_end_time" in body:
            event.scheduled_end_time = _moment(form, "scheduled_end_time",
                                               body["scheduled_end_time"])
        now = self.state.clock.time()
        if "scheduled_start_time" in body and event.status == SCHEDULED and \
                event.scheduled_start_time < now:
            form.add("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                     "Cannot schedule event in the past.")
        end = event.scheduled_end_time
        if event.entity_type == EXTERNAL and end is None:
            form.required("scheduled_end_time", None)
        if end is not None and end <= event.scheduled_start_time:
            form.add("scheduled_end_time", "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                     "The end time must be after the start time.")

    async def edit(self, request: web.Request) -> web.Response:
        guild = self._managing(request)
        event = self._event(request, guild)
        payload, _ = await read_body(request)
        body = payload or {}
        form = FormErrors()
        changed = ScheduledEvent(**{**event.__dict__, "interested": list(event.interested)})
        if "name" in body:
            form.required("name", body["name"])
            form.max_length("name", body["name"], 100)
            changed.name = str(body["name"] or "")
        if "description" in body:
            form.max_length("description", body["description"], 1000)
            changed.description = body["description"]
        if "entity_type" in body:
            changed.entity_type = int(body["entity_type"])
        if "scheduled_start_time" in body:
            changed.scheduled_start_time = _moment(form, "scheduled_start_time",
                                                   body["scheduled_start_time"]) or 0.0
        if "status" in body and body["status"] != event.status:
            if (event.status, body["status"]) not in MOVES:
                form.add("status", "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                         "Cannot change the event to this status.")
            else:
                changed.status = int(body["status"])
        if {"entity_type", "entity_metadata", "channel_id"} & body.keys():
            self._place(form, changed, body)
        self._times(form, changed, body)
        form.raise_if_any()
        event.__dict__.update(changed.__dict__)
        self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return json_response(scheduled_event_payload(self.state, event))

    async def delete(self, request: web.Request) -> web.Response:
        guild = self._managing(request)
        event = self._event(request, guild)
        event.deleted = True
        self._announce("GUILD_SCHEDULED_EVENT_DELETE", event)
        return no_content()

    async def users(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        event = self._event(request, guild)
        return json_response([
            {"guild_scheduled_event_id": str(event.id),
             "user": user_payload(self.state.users[user])} for user in event.interested])

    def _announce(self, name: str, event: ScheduledEvent) -> None:
        self.state.dispatch(name, scheduled_event_payload(self.state, event), event.guild_id,
                            GUILD_SCHEDULED_EVENTS)
        self.state.notify()


def mark_interested(state: LoopbackState, event_id: int, user: User) -> None:
    """A member clicks "Interested" on the event in Discord's client."""
    event = state.scheduled_events.get(event_id)
    if event is None or event.deleted:
        raise unknown_event()
    if user.id not in event.interested:
        event.interested.append(user.id)
        state.dispatch("GUILD_SCHEDULED_EVENT_USER_ADD",
                       {"guild_scheduled_event_id": str(event.id), "user_id": str(user.id),
                        "guild_id": str(event.guild_id)}, event.guild_id, GUILD_SCHEDULED_EVENTS)
        state.notify()
