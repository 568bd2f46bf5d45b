"""ANSI colour for terminal reports, off unless the caller says the stream is a colour terminal
(the CLI decides from --color, NO_COLOR and whether stdout is a terminal)."""

from __future__ import annotations

CODES = {"error": "31", "warning": "33", "info": "36", "bad": "31", "good": "32", "bold": "1", "dim": "2"}


def paint(text: str, role: str, enabled: bool) -> str:
    if not enabled or role not in CODES or not text:
        return text
    return f"\033[{CODES[role]}m{text}\033[0m"
