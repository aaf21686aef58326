"""One end-to-end figure of a checkout with the bench's own function (issue 19).

Usage (``PYTHONPATH`` at the checkout's root)::

    python e2e_one.py PLAYERS THREADS N    # prints donnes/s, Parquet written
"""

import sys
import tempfile
from pathlib import Path

from benchmarks.run import _e2e

with tempfile.TemporaryDirectory() as t:
    print(_e2e(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(t)))
