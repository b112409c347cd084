"""Run by MicroPython after ``boot.py``: start the reader (see ``app.py``), a bag reader or,
when ``config.json`` says ``"kind": "mat"``, a cinema mat (``mat.py``)."""

import app

app.main()
