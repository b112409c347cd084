"""The hub: tables over its API, alerts, guards, phone tokens, card tags and taps, pawn
identity, crashes, its process, the advisor's route, and the soak."""
