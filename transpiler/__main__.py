"""``python -m transpiler``: the same as the ``graphjit`` command."""
import sys

from .cli import main

sys.exit(main())
