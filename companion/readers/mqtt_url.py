"""MQTT broker addresses: ``mqtt://user:password@host:port``."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

DEFAULT_PORT = 1883
"""The standard MQTT port, used when the URL names none."""


@dataclass(frozen=True)
class MqttUrl:
    """Where a broker listens and how to log in."""

    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        auth = ""
        if self.username is not None:
            auth = quote(self.username, safe="")
            if self.password is not None:
                auth += ":" + quote(self.password, safe="")
            auth += "@"
        return f"mqtt://{auth}{self.host}:{self.port}"

    def redacted(self) -> str:
        """The URL with the password hidden, for logs and messages."""
        user = f"{quote(self.username, safe='')}:***@" if self.username is not None else ""
        return f"mqtt://{user}{self.host}:{self.port}"


def parse_mqtt_url(text: str) -> MqttUrl:
    """Parse ``mqtt://[user[:password]@]host[:port]``; raises ``ValueError`` saying why."""
    parts = urlsplit(text)
    if parts.scheme != "mqtt":
        raise ValueError(f"{text!r}: an MQTT URL starts with mqtt://")
    if not parts.hostname:
        raise ValueError(f"{text!r}: the URL names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{text!r}: only mqtt://user:password@host:port is understood")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError as exc:
        raise ValueError(f"{text!r}: bad port") from exc
    user = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    return MqttUrl(parts.hostname, port, user, password)
