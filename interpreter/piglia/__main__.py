"""``python -m piglia`` is the ``piglia`` command."""

import sys

from piglia.cli import main

sys.exit(main())
