"""Why an event is refused."""


class IllegalEvent(Exception):
    """An event that breaks a rule; `reason` is meant for the person at the table."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownEventType(IllegalEvent):
    """An event type the match's game does not know (HTTP 400, not 422)."""
