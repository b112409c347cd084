"""The benchmarks' own modes, run tiny: what they print and how they play, never how fast."""
