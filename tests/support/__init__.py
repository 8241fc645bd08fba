"""What the tests share besides fixtures: builders of logs, example files, servers, database helpers.

Test modules import from here (or get fixtures from a conftest.py), never from one another
(tests/system/test_architecture.py checks it)."""
