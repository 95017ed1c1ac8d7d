"""One file per schema change, oldest first (0001: the first schema the moderator made)."""
