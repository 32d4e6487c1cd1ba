"""Fixtures of the application's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.plugins import install_plugins
from bot.present import render


@pytest.fixture(scope="module")
def game_renderers() -> Iterator[None]:
    """The games' own renderers, as the bot installs them at start-up (and back after), for
    a module whose tests read what tables look like: `pytestmark =
    pytest.mark.usefixtures("game_renderers")`."""
    before = dict(render._renderers)
    install_plugins()
    yield
    render.use_renderers(before)
