"""The tests, a package by folder: helpers are imported by their path, such as
``from tests.engine.positions import dealt_game``, and fixtures come from each folder's
``conftest.py``."""
