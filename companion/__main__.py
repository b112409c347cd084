"""``python -m companion`` behaves exactly like the ``popcorn-companion`` script.

One exception, for ``bench/e2e.py`` only: with ``POPCORN_SERVER=gevent`` in the environment,
gevent patches the standard library first (it must, before anything imports ``threading``
or ``socket``), so that ``serve`` can run on gevent's server for the side-by-side
measurement of the web servers (:mod:`companion.hub.server`).
"""

import os
import sys

if os.environ.get("POPCORN_SERVER") == "gevent":  # pragma: no cover - bench only
    from gevent import monkey

    monkey.patch_all()

from companion.cli import main  # noqa: E402 - after gevent's patching, when asked for

sys.exit(main())
