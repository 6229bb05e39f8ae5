"""The tournament schema's revisions, oldest first."""
