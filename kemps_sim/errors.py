"""The exceptions kemps-sim raises on bad input, so callers can tell a user's mistake from a bug."""

from __future__ import annotations


class KempsError(Exception):
    """Base class of every error kemps-sim raises on purpose."""


class ConfigError(KempsError, ValueError):
    """A configuration value (a rule knob, a preset, a file) is not allowed.

    The message is one line that names the field, the value given and what is allowed.
    """


class IllegalMove(KempsError, ValueError):
    """A move the rules forbid was asked of the table state; the state is left unchanged."""
