"""The append-only, hash-chained event store: matches (`matches.EventStore`) and club streams
(`streams.StreamStore`), the committed bag's dealing, the fold cache and the snapshots folds resume from."""
