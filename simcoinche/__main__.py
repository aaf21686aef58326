import sys

from simcoinche.cli import main

sys.exit(main())
