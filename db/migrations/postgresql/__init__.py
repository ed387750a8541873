"""PostgreSQL migrations: one for each SQLite migration in db/migrations, same number and name."""
