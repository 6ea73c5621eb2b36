"""Config: the file's model, its validation with positions, and the process settings."""
