"""The seating advisor (its HTTP route is tested with the hub's, in tests/hub)."""
