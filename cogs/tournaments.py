"""`/tournament`: create one (its sign-up message and Discord scheduled event), see its
standings and the board, and the organiser's steps. Thin: each command is a call to the
tournament service (`bot.core.tournaments`), which holds every rule and refusal; a refusal
(`TableError`) is answered to the person alone by the commands' one error handler."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import game_names, tournament_text, validation
from bot.core.table import TableError
from bot.core.tournament_tables import DEALS
from bot.core.tournaments import TournamentService
from bot.discord.app import DealersChoiceBot
from bot.discord.responses import Answer, answer_in_time, deliver, in_time, update_clicked
from bot.discord.tournament_buttons import SignupButton, signup_view
from bot.discord.tournament_places import DiscordPlaces
from bot.present import i18n
from bot.present.i18n import t
from cogs.common import Option
from engine.games import GAMES
from engine.i18n import msg

EVENT_LEAD = 900.0  # a tournament without a start time: its event is put this far ahead
Format = app_commands.Transform[str, Option(validation.TOURNAMENT_FORMAT)]
Rounds = app_commands.Transform[int, Option(validation.TOURNAMENT_ROUNDS)]
Seats = app_commands.Transform[int, Option(validation.TOURNAMENT_SEATS)]
Deals = app_commands.Transform[int, Option(DEALS)]


def is_admin(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions is not None and permissions.manage_guild)


@app_commands.guild_only()
class Tournaments(commands.GroupCog, group_name="tournament",
                  group_description="Tournaments: rounds of tables, paired and ranked"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service: TournamentService | None = None
        self.places: DiscordPlaces | None = None
        self._resumed = False

    async def cog_load(self) -> None:
        # A bot that only lists the commands (the catalogue tool's) has no tables.
        if isinstance(self.bot, DealersChoiceBot) and hasattr(self.bot, "tables"):
            self.places = DiscordPlaces(self.bot)
            self.service = TournamentService(self.bot.store, self.bot.tables, self.places)
            await self.service.restore()

    async def cog_unload(self) -> None:
        if self.service is not None:
            await self.service.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.service is not None and not self._resumed:
            self._resumed = True
            await self.service.resume()

    def _service(self) -> TournamentService:
        if self.service is None:
            raise TableError(msg("Tournaments are not available right now."))
        return self.service

    # --- create ----------------------------------------------------------------------------
    @app_commands.command(name="create", description="Create a tournament in this channel")
    @app_commands.describe(
        game="The game every table plays",
        format="Swiss (the default), single elimination or round robin",
        rounds="Rounds of a Swiss tournament (default: enough to separate the field)",
        seats="Players at a full table (default 2)",
        start="When it starts, e.g. 20:30 (UTC) or in 15 minutes (default: when you start it)",
        deals="A chip game's deals at each table, placed by net chips (default 6)",
    )
    async def create(self, interaction: discord.Interaction, game: str,
                     format: Format = "swiss",
                     rounds: Rounds | None = None,
                     seats: Seats | None = None,
                     start: str | None = None,
                     deals: Deals | None = None) -> None:
        await i18n.for_interaction(interaction)
        service = self._service()
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if not isinstance(interaction.channel, discord.TextChannel):
            raise TableError(msg("Create a tournament in a text channel: each of its tables "
                                 "plays in a thread of it."))
        tid, text = await service.create(interaction.guild_id, interaction.channel_id,
                                         interaction.user.id, game, format_=format,
                                         rounds=rounds, seats=seats, start=start,
                                         deals=deals)
        message_id = await deliver(interaction, Answer(
            text, ephemeral=False, view=signup_view(tid),
            allowed_mentions=discord.AllowedMentions.none()))
        if message_id is not None:
            await service.remember_signup(tid, interaction.channel_id, message_id)
        live = service.live[tid]
        begins = live.extra.start_at or service.clock() + EVENT_LEAD
        with i18n.using(live.locale):
            name = t("Tournament of {title}", title=GAMES[live.kind].title)
            about = t("Sign up with the Join button of the tournament's message in #{channel}.",
                      channel=interaction.channel.name)
        assert self.places is not None
        event = await self.places.create_event(interaction.guild_id, interaction.channel_id,
                                               name, about, float(begins))
        if event is not None:
            await service.remember_event(tid, event)

    @create.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        """The games for two or more matching what is typed, named in the reader's language
        (the same reading as a name sent without picking one: `bot.core.game_names`)."""
        locale = i18n.reader_locale(interaction.user.id, i18n.guild_locale(interaction.guild_id))
        with i18n.using(i18n.normalize(interaction.locale) or locale):
            found = game_names.matching_games(current, players=2)
        return [app_commands.Choice(name=title, value=kind) for kind, title in found][:25]

    async def signup_click(self, interaction: discord.Interaction, tournament_id: int,
                           op: str) -> None:
        """A sign-up button (`bot.discord.tournament_buttons`): the message shows the
        sign-up as it is now; once started, without its buttons."""
        await i18n.for_interaction(interaction)
        service = self._service()
        said = await in_time(interaction, service.signup(
            tournament_id, interaction.user.id, interaction.user.display_name, op,
            is_admin=is_admin(interaction), guild_id=interaction.guild_id))
        live = service.live.get(tournament_id)
        open_ = live is not None and live.t.status == "signup"
        await update_clicked(interaction, Answer(
            said, view=signup_view(tournament_id) if open_ else None,
            allowed_mentions=discord.AllowedMentions.none()))

    # --- reading ---------------------------------------------------------------------------
    @app_commands.command(name="standings", description="The standings of this channel's "
                                                        "tournament")
    async def standings(self, interaction: discord.Interaction) -> None:
        await i18n.for_interaction(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        text, files = await in_time(interaction, self._service().standings(
            interaction.guild_id, interaction.channel_id), ephemeral=False)
        picture = discord.File(io.BytesIO(files[-1][1]), filename=files[-1][0]) \
            if files else None
        await deliver(interaction, Answer(text, ephemeral=False, file=picture,
                                          allowed_mentions=discord.AllowedMentions.none()))

    @app_commands.command(name="board", description="This server's tournament winners")
    @app_commands.describe(game="Only this game's tournaments")
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await i18n.for_interaction(interaction)
        assert interaction.guild_id is not None
        store = self._service().store
        kind = None if game is None else game_names.game_kind(game)
        rows = await store.tournament_board(interaction.guild_id, kind)
        await deliver(interaction, Answer(
            tournament_text.board_text(rows, kind), ephemeral=not rows,
            allowed_mentions=discord.AllowedMentions.none()))

    board.autocomplete("game")(game_choices)

    # --- the organiser's steps -------------------------------------------------------------
    async def _step(self, interaction: discord.Interaction, step: str,
                    player: discord.Member | discord.User | None = None) -> None:
        await i18n.for_interaction(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        work = self._service().organise(
            interaction.guild_id, interaction.channel_id, interaction.user.id, step,
            is_admin=is_admin(interaction), player=None if player is None else player.id)

        async def answered() -> Answer:
            return Answer(await work)

        await answer_in_time(interaction, answered())

    @app_commands.command(name="start", description="Start the tournament now (organiser)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._step(interaction, "start")

    @app_commands.command(name="pause", description="Pause before the next round (organiser)")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._step(interaction, "pause")

    @app_commands.command(name="resume", description="Resume a paused tournament (organiser)")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._step(interaction, "resume")

    @app_commands.command(name="next", description="Start the next round now (organiser)")
    async def next(self, interaction: discord.Interaction) -> None:
        await self._step(interaction, "next")

    @app_commands.command(name="end", description="End the tournament now (organiser)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._step(interaction, "end")

    @app_commands.command(name="replace", description="Let an AI seat play on for a player "
                                                      "(organiser)")
    @app_commands.describe(player="The player who left")
    async def replace(self, interaction: discord.Interaction,
                      player: discord.Member | discord.User) -> None:
        await self._step(interaction, "replace", player)

    @app_commands.command(name="forfeit", description="Record a player's forfeit of their "
                                                      "table (organiser)")
    @app_commands.describe(player="The player who forfeits this round's table")
    async def forfeit(self, interaction: discord.Interaction,
                      player: discord.Member | discord.User) -> None:
        await self._step(interaction, "forfeit", player)

    @app_commands.command(name="drop", description="Drop a player from the next rounds "
                                                   "(organiser)")
    @app_commands.describe(player="The player who leaves the tournament")
    async def drop(self, interaction: discord.Interaction,
                   player: discord.Member | discord.User) -> None:
        await self._step(interaction, "drop", player)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SignupButton)
    await bot.add_cog(Tournaments(bot))

