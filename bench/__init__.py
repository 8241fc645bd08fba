"""Benchmarks (`make bench`, `python -m bench`): the replay's step change on 500-event matches."""
