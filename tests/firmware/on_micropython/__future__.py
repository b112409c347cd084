"""``from __future__ import annotations`` for MicroPython, which has no ``__future__``.

Only on the path of the programs run on MicroPython's Unix port (see ``health.py``): it lets
the tests' register-level RC522 fake, written for CPython, load there unchanged. MicroPython
never evaluates annotations, so the name only has to exist.
"""

annotations = None
"""The feature's name; its value does not matter."""
