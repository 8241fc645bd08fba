"""The append-only, hash-chained event store: matches (`matches.EventStore`) and club streams
(`streams.StreamStore`), both built on what every stream store shares (`chained`: the append's checks, retry and
stale-seq conflict, the verified fold, verify), the committed bag's dealing, the fold cache and the snapshots
folds resume from."""
