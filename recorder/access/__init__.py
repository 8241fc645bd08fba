"""Who may do what: API tokens and roles (`auth`), the pages' signed sessions (`sessions`), and who sees a
match in progress in full (`visibility`)."""
