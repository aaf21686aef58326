"""User-facing errors.

Every error a user can cause (a malformed file, an unknown card, an impossible option)
is raised as :class:`InputError` with a one-line message naming the culprit. The command
line prints it as ``simcoinche: error: <message>`` and exits with status 2.
"""


class InputError(ValueError):
    """Bad input from the user: one line, names the culprit."""
