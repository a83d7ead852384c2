"""Errors that end a run with exit code 2 and one `error:` line."""


class UserError(Exception):
    """Something the user typed or pointed at needs fixing; the message says what.
    `details`: several mistakes found at once (a spec's), printed one an
    indented line under the `error:` line."""

    def __init__(self, message: str, details: list[str] | tuple[str, ...] = ()):
        super().__init__(message)
        self.details = tuple(details)


class ProblemRejected(UserError):
    """A drawn or given problem cannot be shown (the exact and numeric paths
    disagree, or its property could not be reached within the retry bound)."""
