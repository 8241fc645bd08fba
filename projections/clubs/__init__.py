"""Clubs: the player registry and tournaments, kept as event streams like matches.

Pure, like the games: each kind of stream (`protocol.StreamKind`) checks an event, then applies it, and
refuses an illegal one with a reason (`IllegalEvent`), never half-applied. The store (`recorder.store.streams`)
chains and keeps the events; everything a reader sees — the registry, a tournament's rounds, standings,
pairings, ratings — is folded from them (and from the finished matches' facts).
"""
