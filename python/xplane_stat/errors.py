# SPDX-License-Identifier: Apache-2.0
"""Exceptions, one class per kind of failure, named after the command's exit
codes (xplane-stat(1), EXIT STATUS): what the command would exit with is
their exit_code."""


class Error(Exception):
    """Something xplane-stat could not do; str() is the tool's own message."""

    exit_code = 1


class ReadError(Error):
    """An input could not be opened or read, or it changed while read (exit 1)."""

    exit_code = 1


class UsageError(Error, ValueError):
    """A bad argument: an unknown option, a bad pattern or value (exit 2)."""

    exit_code = 2


class InputError(Error):
    """An input is not a valid XSpace (or gzip of one), or passes a limit (exit 3)."""

    exit_code = 3


class NothingFound(Error):
    """Nothing matched: no jitted function, no autotune candidate (exit 4)."""

    exit_code = 4


class NoWinner(Error):
    """autotune: there is no single fastest candidate (exit 9, --winner)."""

    exit_code = 9


class OutOfMemory(Error, MemoryError):
    """The library ran out of memory (exit 1); also a MemoryError."""

    exit_code = 1


# XPS_E* codes of include/xplane_stat.h
_BY_CODE = {-1: OutOfMemory, -2: ReadError, -3: InputError, -4: InputError, -5: UsageError}


def error_for(code, message):
    return _BY_CODE.get(code, Error)(message)
