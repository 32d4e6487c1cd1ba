"""`python -m bot.sandbox`, the same as `python -m bot --sandbox`."""

import sys

from bot.sandbox import run_sandbox

sys.exit(run_sandbox())
