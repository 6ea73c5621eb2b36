"""`python -m hintgate` runs the command-line interface."""

from hintgate.cli.app import main

main()
