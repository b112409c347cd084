"""A private Mosquitto broker, for when the user has none.

:class:`Broker` writes a config that listens on loopback only, refuses anonymous clients,
checks a generated password for the hub and one per reader, and keeps each reader to its own
topics (:mod:`.accounts`), then runs ``mosquitto`` as a child process and stops it with the
hub. On Linux the child also gets the kernel's parent-death signal, so it dies with a hub
that is killed outright. Its data (password file, persistence) lives in a temporary directory
unless one is given, so the same broker can be restarted with its persistent sessions. A pid
file there lets the next start stop a broker that a killed hub left running on that folder
(on a system without the parent-death signal), and a port that another program holds is
refused with a message instead of being mistaken for ours.
"""

from __future__ import annotations

import ctypes
import getpass
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .accounts import HUB_USER, ReaderAccounts, acl_text
from .mqtt_url import MqttUrl

INSTALL_HINT = "sudo apt-get install mosquitto"
"""The one-line fix shown when Mosquitto is missing."""
USERNAME = HUB_USER
"""The hub's account on the private broker (readers have their own, named by their id)."""
PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that forked it ends."""


class BrokerError(RuntimeError):
    """Mosquitto is missing or did not start; the message is one line for the user."""


PORT_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
"""Where Linux says which ports it draws outgoing connections' local ports from."""


def free_port() -> int:
    """A TCP port that nobody has bound right now, on any address.

    It is picked at random below the range the system draws outgoing connections' ports
    from (:data:`PORT_RANGE`; 32768 and up when unknown). Then a connection that anything on
    the machine opens meanwhile cannot take it before its user binds it, as happened with
    the system's own pick (port 0), which comes from that very range. If 64 tries find no
    such port, the system picks."""
    try:
        low = int(PORT_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    pick = secrets.SystemRandom()
    for _ in range(64 if low > 2048 else 0):
        port = pick.randrange(max(1024, low - 10000), low)
        with socket.socket() as sock:
            try:
                sock.bind(("", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child receive SIGTERM when its parent dies (Linux).

    The kernel sends the signal when the *thread* that started the child ends, so start the
    broker from a thread that lives as long as the hub (the main thread). ``prctl`` is found
    here, before the fork, so that the child runs nothing but the call itself; if the parent
    died before the call took effect, the child exits at once.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os._exit(0)

    return arm


def _find(program: str) -> str | None:
    return shutil.which(program) or next(
        (str(p) for p in (Path("/usr/sbin") / program, Path("/usr/local/sbin") / program)
         if p.exists()), None)


class Broker:
    """One Mosquitto process with a password, started and stopped by us.

    It listens on 127.0.0.1 unless ``listen`` says otherwise: ``0.0.0.0`` (every interface)
    is what real Wi-Fi readers need. The hub itself always connects over loopback (:attr:`url`).
    """

    def __init__(self, port: int | None = None, workdir: str | Path | None = None,
                 password: str | None = None, listen: str = "127.0.0.1",
                 accounts: ReaderAccounts | None = None) -> None:
        self.port = port or free_port()
        self.listen = listen
        self._tmp = None if workdir else tempfile.TemporaryDirectory(prefix="popcorn-mqtt-")
        self.workdir = Path(workdir or self._tmp.name)  # type: ignore[union-attr]
        self.password = password or secrets.token_urlsafe(18)
        self.accounts = accounts or ReaderAccounts()
        """Each reader's own login; :meth:`add_readers` makes more while the broker runs."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> MqttUrl:
        """How the hub reaches this broker: its own account, allowed every topic."""
        return MqttUrl(self._local_host(), self.port, USERNAME, self.password)

    def reader_url(self, reader: str, host: str | None = None) -> MqttUrl:
        """How ``reader`` reaches this broker (at ``host``), logged in as itself."""
        self.add_readers([reader])
        return MqttUrl(host or self._local_host(), self.port, reader,
                       self.accounts.passwords[reader])

    def add_readers(self, readers: Iterable[str]) -> list[str]:
        """Give each reader its own login if it has none; a running broker reloads its
        password and ACL files (SIGHUP). Returns the readers that got one now."""
        new = [r for r in readers if self.accounts.ensure(r)]
        if new and self.process and self.process.poll() is None:
            self._write_logins()
            self.process.send_signal(signal.SIGHUP)
        return new

    def _write_logins(self) -> None:
        """Write the password file (hub and readers, hashed by ``mosquitto_passwd -U`` in
        one call) and the ACL file."""
        mosquitto_passwd = _find("mosquitto_passwd")
        if mosquitto_passwd is None:
            raise BrokerError(f"mosquitto_passwd is not installed; install it with: "
                              f"{INSTALL_HINT}")
        self.workdir.mkdir(parents=True, exist_ok=True)
        plain = self.workdir / "passwords.new"
        fd = os.open(plain, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        logins = {**self.accounts.passwords, USERNAME: self.password}
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.writelines(f"{user}:{password}\n" for user, password in logins.items())
        subprocess.run([mosquitto_passwd, "-U", str(plain)], check=True, capture_output=True)
        os.replace(plain, self.workdir / "passwords")
        (self.workdir / "acl").write_text(acl_text(), encoding="utf-8")

    def _configure(self) -> Path:
        self._write_logins()
        config = self.workdir / "mosquitto.conf"
        config.write_text("\n".join([
            "per_listener_settings false",
            f"listener {self.port}" + ("" if self.listen in ("0.0.0.0", "", "::")
                                       else f" {self.listen}"),
            "allow_anonymous false",
            f"password_file {self.workdir / 'passwords'}",
            f"acl_file {self.workdir / 'acl'}",
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
        self._stop_stale(config)
        self._check_port_free()
        self.process = subprocess.Popen([mosquitto, "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        preexec_fn=die_with_parent())
        self._pid_file.write_text(f"{self.process.pid}\n", encoding="utf-8")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (self.process.stderr.read() if self.process.stderr else b"").decode()
                raise BrokerError(f"mosquitto exited at start: {err.strip()[:200]}")
            try:
                with socket.create_connection((self._local_host(), self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    @property
    def _pid_file(self) -> Path:
        return self.workdir / "mosquitto.pid"

    def _stop_stale(self, config: Path) -> None:
        """Stop a broker that an earlier run left behind on this same folder (a hub killed
        before it could stop its child), found by the pid file and its command line."""
        try:
            pid = int(self._pid_file.read_text(encoding="utf-8"))
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            return
        if str(config).encode() not in command:
            return  # the pid now belongs to another process
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)

    def _check_port_free(self) -> None:
        """Refuse a port that another program listens on: without this check the wait for
        "accepts connections" would be met by that program, and the hub would talk to a
        broker that does not know its password (Debian's own Mosquitto service, started by
        ``apt-get install mosquitto``, listens on 1883)."""
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((self._bind_host(), self.port))
            except OSError:
                raise BrokerError(
                    f"port {self.port} is taken by another program. If it is the system's "
                    f"Mosquitto service: sudo systemctl disable --now mosquitto; or choose "
                    f"another port (serve --mqtt-port), or give serve --mqtt the URL of "
                    f"that broker") from None

    def _bind_host(self) -> str:
        return "0.0.0.0" if self.listen in ("0.0.0.0", "", "::") else self.listen

    def _local_host(self) -> str:
        return "127.0.0.1" if self.listen in ("0.0.0.0", "", "::") else self.listen

    def stop(self) -> None:
        """Stop Mosquitto (it saves its persistent sessions on the way out)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self._pid_file.unlink(missing_ok=True)
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


READER_PORT = 1883
"""MQTT's usual port: what a reader's ``mqtt_port`` says unless told otherwise."""


def reader_broker(folder: Path, port: int = READER_PORT, listen: str = "0.0.0.0") -> Broker:
    """The hub's own broker for real Wi-Fi readers: on the network, on a fixed port, with the
    hub's password and each reader's made once and kept in ``folder`` (``hub-password``,
    ``reader-passwords.json``; the persistent sessions live there too), so that a reader's
    ``config.json`` stays right across hub restarts."""
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "hub-password"
    if not secret.exists():
        secret.touch(mode=0o600)
        secret.write_text(secrets.token_urlsafe(18) + "\n", encoding="utf-8")
    password = secret.read_text(encoding="utf-8").strip()
    return Broker(port=port, workdir=folder, password=password, listen=listen,
                  accounts=ReaderAccounts(folder / "reader-passwords.json"))
