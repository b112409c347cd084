"""A table's moves beyond one tap: placement, gains, batches, and how a card's tap is read."""
