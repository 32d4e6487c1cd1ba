"""The store's errors: each message is fit to show whoever runs the bot.

Kept apart from the rows so that the drivers, which raise `StoreError`, need nothing else of
the store; `bot.store` re-exports them.
"""

from __future__ import annotations

__all__ = [
    "ChipAuditError",
    "InsufficientChipsError",
    "MigrationError",
    "SchemaTooNewError",
    "SnapshotConflictError",
    "StoreError",
]


class StoreError(Exception):
    """Something the store cannot do; the message is fit to show whoever runs the bot."""


class MigrationError(StoreError):
    """A migration file is malformed or failed; the database was left at the previous version."""


class SchemaTooNewError(StoreError):
    """The database was written by newer code; refusing protects it from being misread."""

    def __init__(self, path: object, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(
            f"The database {path} has schema version {found} but this version of Dealer's "
            f"Choice only knows up to version {known}; upgrade the bot or point DATABASE at "
            "another file."
        )


class SnapshotConflictError(StoreError):
    """A table id was reused for another channel or game, which would overwrite a live table."""


class InsufficientChipsError(StoreError):
    """A chip change would take a balance below zero; nothing was changed.

    Carries the numbers so that a cog can word its own reply (it knows the player's name).
    """

    def __init__(self, guild_id: int, user_id: int, balance: int, delta: int) -> None:
        self.guild_id = guild_id
        self.user_id = user_id
        self.balance = balance
        self.delta = delta
        super().__init__(f"Not enough chips: user {user_id} has {balance} and this needs {-delta}.")


class ChipAuditError(StoreError):
    """A chip move the books cannot take: a table paying out more than its account holds, or
    a table ending with chips still in its account. The transaction is rolled back, so
    nothing was written; it is a bug in whoever computed the moves, never a player's doing."""
