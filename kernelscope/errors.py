"""Exceptions that the command line turns into a one-line message and exit status 2."""


class KernelscopeError(Exception):
    """Base class for errors a user can act on (bad input, bad options, missing tools)."""


class InputError(KernelscopeError):
    """The input cannot be analysed at all (unreadable, binary, too large, ...)."""


class InvalidSource(InputError):
    """Source no compiler accepts (an array of negative size), found at `line`:`column`; the front
    end adds the file's path to the message."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(f"{line}:{column}: {message}")
        self.line, self.column, self.message = line, column, message


class UsageError(KernelscopeError):
    """An option or argument is malformed."""


class ToolMissingError(KernelscopeError):
    """An external tool or device that the command needs is not available (nvcc, a GPU, ncu)."""
