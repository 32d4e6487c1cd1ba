"""`python -m loopback.sandbox`, the same as `python -m bot --sandbox`."""

import sys

from loopback.sandbox import run_sandbox

sys.exit(run_sandbox())
