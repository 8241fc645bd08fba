"""The pure domain: rule reducers, scores and statistics read models.

Nothing here does I/O: the same log always folds to the same state.
"""
