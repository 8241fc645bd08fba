"""Read models kept from the log: each a `ReadModel` (what it computes from a match's verified fold, the
table it writes); the projector keeps them caught up, `rebuild` rewrites them."""
