"""Popcorn Companion: follows a real game of Popcorn from RFID bag readers and a tablet."""

__version__ = "0.1.0"
