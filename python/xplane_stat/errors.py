# SPDX-License-Identifier: Apache-2.0
"""Exceptions, one class per kind of failure, named after the command's exit
codes (xplane-stat(1), EXIT STATUS): what the command would exit with is
their exit_code."""


class Error(Exception):
    """Something xplane-stat could not do; str() is the tool's own message."""

    exit_code = 1


def _kind(name, exit_code, doc, *bases):
    return type(name, (Error,) + bases, {"exit_code": exit_code, "__doc__": doc, "__module__": __name__})


ReadError = _kind("ReadError", 1, "An input could not be opened or read, or it changed while read (exit 1).")
UsageError = _kind("UsageError", 2, "A bad argument: an unknown option, a bad pattern or value (exit 2).", ValueError)
InputError = _kind("InputError", 3, "An input is not a valid XSpace (or gzip of one), or passes a limit (exit 3).")
NothingFound = _kind("NothingFound", 4, "Nothing matched: no jitted function, no autotune candidate (exit 4).")
NoWinner = _kind("NoWinner", 9, "autotune: there is no single fastest candidate (exit 9, --winner).")
OutOfMemory = _kind("OutOfMemory", 1, "The library ran out of memory (exit 1); also a MemoryError.", MemoryError)

# XPS_E* codes of include/xplane_stat.h
_BY_CODE = {-1: OutOfMemory, -2: ReadError, -3: InputError, -4: InputError, -5: UsageError}


def error_for(code, message):
    return _BY_CODE.get(code, Error)(message)
