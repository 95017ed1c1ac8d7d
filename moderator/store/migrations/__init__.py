"""The schema's history as Alembic migrations (moderator/store/migrate.py runs them)."""
