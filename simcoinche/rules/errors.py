"""Errors reported to the user as one line.

- :class:`InputError`: bad input from the user (a malformed file, an unknown card, an
  impossible option). The command line prints ``simcoinche: error: <message>`` and exits
  with status 2; nothing half-written is left behind.
- :class:`RunError`: the work itself failed for a reason outside the input (a task lost
  on a cluster, storage that workers cannot write). One line too, exit status 1.
"""


class SimcoincheError(Exception):
    """Base of the errors the command line reports as one line (``exit_status``)."""

    exit_status = 1


class InputError(SimcoincheError, ValueError):
    """Bad input from the user: one line, names the culprit. Exit status 2."""

    exit_status = 2


class RunError(SimcoincheError):
    """A run failed for a reason outside the user's input. Exit status 1."""

    exit_status = 1


class IllegalDecisionError(RunError):
    """A player kernel answered an illegal call or card (or none), which a kernel replaced
    to finish the donne: the run is refused, never published. One line naming the player
    kind, the profile and the donne; exit status 1."""
