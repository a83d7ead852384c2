"""Errors that end a run with exit code 2 and one `error:` line."""


class UserError(Exception):
    """Something the user typed or pointed at needs fixing; the message says what."""


class ProblemRejected(UserError):
    """A drawn or given problem cannot be shown (the exact and numeric paths
    disagree, or its property could not be reached within the retry bound)."""
