"""Tables at the hub: the event log, the tag registry, and how a tap becomes a move or an alert."""
