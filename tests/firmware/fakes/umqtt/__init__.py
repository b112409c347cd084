"""Stand-in for MicroPython's ``umqtt`` package (see ``simple``)."""
