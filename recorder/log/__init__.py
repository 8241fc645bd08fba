"""The log as a file, with no database: the match file's JSON Lines, canonical JSON, hashes and the chain
check (`file`), the limits on everything that comes in (`inputs`), what a read serves for a stored value that
breaks them (`readable`), and the backup file (`backup`)."""
