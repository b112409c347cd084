"""The one piece of ``threading`` the RC522 fake uses, for MicroPython's Unix port.

The programs run there are single-threaded, so a lock has nothing to guard: entering and
leaving it does nothing, and re-entering it (as an ``RLock`` allows) cannot deadlock.
"""


class RLock:
    """A lock for a program with one thread: ``with lock:`` always goes through."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


Lock = RLock
"""The same stand-in."""
