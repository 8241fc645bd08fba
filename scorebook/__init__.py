"""The one wiring point: the ASGI app with the API and the dashboard on one port (`app`), and the
`scorebook` command (`cli`). Nothing below imports this package."""
