"""The API's routers, one per resource; `recorder.api.create_api` includes them under /api."""
