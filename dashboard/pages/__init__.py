"""The dashboard's pages: the match list, a match's replay, the statistics."""
