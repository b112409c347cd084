"""A stand-in for MicroPython's ``network`` module: a Wi-Fi station that joins known networks.

A test puts ``ssid -> password`` in :data:`ACCESS_POINTS`; a station is connected while it is
active, has been asked to join one of them with the right password, and that network is still
there (removing it from the dict is a Wi-Fi outage).
"""

from __future__ import annotations

STA_IF, AP_IF = 0, 1
STAT_IDLE, STAT_CONNECTING, STAT_GOT_IP = 0, 1, 3

ACCESS_POINTS: dict[str, str] = {}
"""The networks in range, with their passwords."""
stations: list[WLAN] = []


class WLAN:
    """A station interface."""

    def __init__(self, interface: int = STA_IF) -> None:
        self.interface = interface
        self._active = False
        self._ssid: str | None = None
        self._key: str | None = None
        self.connects = 0
        self.rssi = -60
        """The signal this station reports while connected, in dBm (tests change it)."""
        stations.append(self)

    def active(self, state: bool | None = None) -> bool | None:
        """Get or set whether the radio is on."""
        if state is None:
            return self._active
        self._active = bool(state)
        return None

    def connect(self, ssid: str, key: str | None = None) -> None:
        """Start joining ``ssid``."""
        if not self._active:
            raise OSError("Wifi Not Started")
        self._ssid, self._key = ssid, key
        self.connects += 1

    def disconnect(self) -> None:
        """Leave the network."""
        self._ssid = None

    def isconnected(self) -> bool:
        """Whether the station has joined its network."""
        return (self._active and self._ssid is not None
                and ACCESS_POINTS.get(self._ssid) == (self._key or ""))

    def status(self, param: str | None = None) -> int:
        """A coarse status code, or with ``"rssi"`` the signal (:attr:`rssi`, in dBm) while
        connected (a real station raises ``OSError`` when it is not)."""
        if param == "rssi":
            if not self.isconnected():
                raise OSError("not connected")
            return self.rssi
        if param is not None:
            raise ValueError("unknown status parameter")
        return STAT_GOT_IP if self.isconnected() else STAT_CONNECTING

    def ifconfig(self) -> tuple[str, str, str, str]:
        """Address, netmask, gateway, DNS."""
        return ("192.168.4.2", "255.255.255.0", "192.168.4.1", "192.168.4.1")
