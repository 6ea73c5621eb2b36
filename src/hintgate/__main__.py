"""`python -m hintgate` runs the command-line interface."""

from hintgate.cli import main

main()
