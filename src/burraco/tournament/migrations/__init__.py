"""Alembic migrations of the tournament tables (version table
``alembic_version_tournament``); run by :func:`burraco.tournament.store.migrate`."""
