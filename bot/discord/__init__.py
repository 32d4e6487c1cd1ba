"""The adapter: the only part of the bot that talks to Discord (discord.py)."""
