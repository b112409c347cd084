"""The benchmarks' own drivers and modes, run small: what a figure of ``docs/benchmarks.md``
counts, and how the bench plays, checked on a game or two (never a speed)."""
