"""``python -m reference.cli`` is the ``ftr`` command."""

import sys

from reference.cli import main

sys.exit(main())
