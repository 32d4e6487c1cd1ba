"""What every test process needs, as the bot's start-up provides it."""

from __future__ import annotations

import pytest

from bot import wordlists


@pytest.fixture(autouse=True, scope="session")
def word_lists(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The word finder's lists, as the bot installs them at start-up (bot/app.py): from the
    installed dictionaries, cached in a data directory of the session's own. Built only if a
    test needs one (a Sppoker game made without an injected finder)."""
    wordlists.install(tmp_path_factory.mktemp("data"))
