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


class InvariantError(KempsError, AssertionError):
    """The table state broke conservation: a bug in whatever changed it, never a user's mistake."""


class AgentError(KempsError):
    """An agent raised, returned something that is not an intent, or asked for a move the rules forbid.

    The message names the agent, its seat, the simulated time and the match seed, so the match can be replayed.
    """
