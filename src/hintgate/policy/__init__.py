"""Policy: modes, rules and `decide()`, the approval queue, and the questions put to a person. Pure."""
