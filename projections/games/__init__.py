"""One package per game, each with the same modules: `rules` (state and event handlers), `moves`
(legal moves), `view` (descriptions and the state JSON), `player` (a seeded random legal player),
`events` (typed models of each event's data), plus geometry or tiles where the game needs them.
The package's `__init__` assembles the game's descriptor and `GAME`."""
