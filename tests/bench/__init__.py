"""The benchmarks' own drivers, run small: what a figure of ``docs/benchmarks.md`` counts is
checked here on a game or two (never a speed)."""
