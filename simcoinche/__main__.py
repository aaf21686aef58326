import sys

from simcoinche.commands.cli import main

sys.exit(main())
