"""The core: tables, their service and clocks, chips, narration and records; no Discord."""
