"""A private Mosquitto broker, for when the user has none.

:class:`Broker` writes a config that listens on loopback only, refuses anonymous clients
and checks a generated password, then runs ``mosquitto`` as a child process and stops it
with the hub. Its data (password file, persistence) lives in a temporary directory unless
one is given, so the same broker can be restarted with its persistent sessions.
"""

from __future__ import annotations

import getpass
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from .mqtt_url import MqttUrl

INSTALL_HINT = "sudo apt-get install mosquitto"
"""The one-line fix shown when Mosquitto is missing."""
USERNAME = "popcorn"
"""The account the private broker creates."""


class BrokerError(RuntimeError):
    """Mosquitto is missing or did not start; the message is one line for the user."""


def free_port() -> int:
    """A TCP port on loopback that nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _find(program: str) -> str | None:
    return shutil.which(program) or next(
        (str(p) for p in (Path("/usr/sbin") / program, Path("/usr/local/sbin") / program)
         if p.exists()), None)


class Broker:
    """One Mosquitto process on 127.0.0.1 with a password, started and stopped by us."""

    def __init__(self, port: int | None = None, workdir: str | Path | None = None,
                 password: str | None = None) -> None:
        self.port = port or free_port()
        self._tmp = None if workdir else tempfile.TemporaryDirectory(prefix="popcorn-mqtt-")
        self.workdir = Path(workdir or self._tmp.name)  # type: ignore[union-attr]
        self.password = password or secrets.token_urlsafe(18)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> MqttUrl:
        """How clients reach this broker, credentials included."""
        return MqttUrl("127.0.0.1", self.port, USERNAME, self.password)

    def _configure(self) -> Path:
        mosquitto_passwd = _find("mosquitto_passwd")
        if mosquitto_passwd is None:
            raise BrokerError(f"mosquitto_passwd is not installed; install it with: "
                              f"{INSTALL_HINT}")
        self.workdir.mkdir(parents=True, exist_ok=True)
        passwords = self.workdir / "passwords"
        subprocess.run([mosquitto_passwd, "-b", "-c", str(passwords), USERNAME, self.password],
                       check=True, capture_output=True)
        passwords.chmod(0o600)
        config = self.workdir / "mosquitto.conf"
        config.write_text("\n".join([
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            f"password_file {passwords}",
            "persistence true",
            f"persistence_location {self.workdir}/",
            "autosave_interval 1",
            f"log_dest file {self.workdir / 'mosquitto.log'}",
            "max_inflight_messages 100",
            "max_queued_messages 100000",
            "set_tcp_nodelay true",
            # run as whoever started us: as root, Mosquitto would otherwise switch to its
            # own account and lose access to our private files
            f"user {getpass.getuser()}",
            "",
        ]))
        return config

    def start(self, timeout: float = 10.0) -> Broker:
        """Start Mosquitto and wait until it accepts connections."""
        mosquitto = _find("mosquitto")
        if mosquitto is None:
            raise BrokerError(f"mosquitto is not installed; install it with: {INSTALL_HINT}")
        config = self._configure()
        self.process = subprocess.Popen([mosquitto, "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (self.process.stderr.read() if self.process.stderr else b"").decode()
                raise BrokerError(f"mosquitto exited at start: {err.strip()[:200]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self) -> None:
        """Stop Mosquitto (it saves its persistent sessions on the way out)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        """Stop and start again on the same port, with the same data."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop and delete the temporary directory."""
        self.stop()
        if self._tmp:
            self._tmp.cleanup()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
