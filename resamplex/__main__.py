"""``python -m resamplex``: the same as the ``resamplex`` command."""

import sys

from resamplex.cli import main

if __name__ == "__main__":
    sys.exit(main())
