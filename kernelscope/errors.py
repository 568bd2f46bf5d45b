"""Exceptions that the command line turns into a one-line message and exit status 2."""


class KernelscopeError(Exception):
    """Base class for errors a user can act on (bad input, bad options, missing tools)."""


class InputError(KernelscopeError):
    """The input cannot be analysed at all (unreadable, binary, too large, ...)."""


class UsageError(KernelscopeError):
    """An option or argument is malformed."""


class ToolMissingError(KernelscopeError):
    """An external tool or device that the command needs is not available (nvcc, a GPU, ncu)."""
