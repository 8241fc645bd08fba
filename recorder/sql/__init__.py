"""Everything that knows SQL and its dialects: the tables, the engines, the append-only triggers, the
migrations' helpers, stored rows read as plain Core rows, and the statements an append runs on SQLite and on
PostgreSQL."""
