"""The rules engine: pure Python, no Discord, no I/O beyond reading its own data files,
no clock and no global random state. Every game replays exactly from its seed."""
