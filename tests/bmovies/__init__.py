"""B Movies: its rules engine, record, Final Cut, hub and secrets (its screens are in tests/web)."""
