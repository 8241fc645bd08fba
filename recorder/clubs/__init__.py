"""Clubs: the player registry and tournaments, kept as club streams beside the matches (`service.Clubs`)."""
