"""Run by MicroPython after ``boot.py``: start the bag reader (see ``app.py``)."""

import app

app.main()
