"""``python -m belote_cli``: the ``belote`` command."""

import sys

from .cli import main

sys.exit(main())
