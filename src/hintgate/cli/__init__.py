"""The command line: typer commands, the composition root that wires config, store, gateway and web."""
