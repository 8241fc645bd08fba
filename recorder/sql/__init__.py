"""Everything that knows SQL and its dialects: the tables, the engines, the append-only triggers, the
migrations' helpers, stored rows read as plain Core rows, and the append path — its contract (`append`) and
how it writes and locks on SQLite (`sqlite`) and on PostgreSQL (`postgres`)."""
