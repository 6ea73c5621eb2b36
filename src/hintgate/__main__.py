"""`python -m hintgate` runs the command-line interface."""

from hintgate.cli.entry import main

main()
