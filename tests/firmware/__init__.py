"""The reader firmware's tests (see ``conftest.py``)."""
