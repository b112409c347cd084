"""``python -m companion`` behaves exactly like the ``popcorn-companion`` script."""

import sys

from companion.cli import main

sys.exit(main())
