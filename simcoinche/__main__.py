import sys

from simcoinche.commands.cli import console

sys.exit(console())
