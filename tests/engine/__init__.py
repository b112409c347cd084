"""The Popcorn rules engine: rules, positions, scoring, summary, catalog, simulation."""
