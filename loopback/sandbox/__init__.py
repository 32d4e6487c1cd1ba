"""The sandbox: play on a local Discord in the terminal, against the real bot, no account.

`python -m bot --sandbox` (or `./dev run` without a DISCORD_TOKEN) starts it.
"""

from loopback.sandbox.session import run_sandbox

__all__ = ["run_sandbox"]
