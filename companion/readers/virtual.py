"""Virtual bag readers: the firmware's protocol behaviour without the hardware.

A :class:`VirtualReader` numbers its taps, keeps every unacked event and resends them all
after a (re)connection, a ``resync``, or every ``resend_interval`` seconds until the hub
acks them. It is carried by a bank of transports:

* :class:`SerialBank`: each reader gets its own pseudo-terminal pair; the hub side is
  reached through a stable symlink ``DIR/<reader>`` that survives a simulated unplug;
* :class:`MqttBank`: each reader is an MQTT client with a retained status and a last will.

A virtual reader's heartbeat carries the health a test or the demo chose
(:meth:`VirtualReader.set_health`: a weak signal, a low battery, failed reads), none by
default, like a reader with an older firmware.

A tap is a UID and nothing more, as with the real reader: tapping a pawn's tag and tapping
a card's (a movie card, a theater tile, an award card) are the same call, and only the hub's
registry tells them apart (``hub.demo.card_uids`` makes up tags for every card).

The demo table, the tests, ``readers simulate`` and the benchmarks use them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pty
import selectors
import socket
import threading
import time
import tty
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from . import protocol as proto
from . import topics
from .mqtt_link import make_client, no_delay
from .mqtt_url import MqttUrl

log = logging.getLogger("companion.readers.virtual")

FIRMWARE = "virtual/1"
"""The firmware version virtual readers announce in ``hello``."""


class VirtualReader:
    """One bag reader's protocol state: seq numbers, the unacked buffer, feedback seen."""

    def __init__(self, reader: str, boot: int = 1, *, resend_interval: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reader, self.boot = reader, boot
        self.resend_interval, self.clock = resend_interval, clock
        self.write: Callable[[bytes], None] | None = None
        self.seq = 0
        self.unacked: OrderedDict[int, bytes] = OrderedDict()
        self.feedback: list[dict[str, Any]] = []
        self.acks = 0
        self.greeted = False
        """Whether the hub has acked this boot since the last hello."""
        self.repeat_hello = False
        """Repeat the hello until acked (MQTT); over serial the hub's resync asks for it."""
        self.health: dict[str, int] = {}
        """The health fields each heartbeat carries (see :meth:`set_health`)."""
        self.resent = 0
        """How many events were sent again (a hello's resends and the timed ones): an event
        sent twice was not acked in time, so a link that loses messages shows up here."""
        self._lock = threading.Lock()
        self._last_send = 0.0
        self._started = clock()

    def _emit(self, payload: bytes) -> None:
        if self.write is None:
            return
        try:
            self.write(payload)
        except OSError as exc:  # unplugged or broker away: the resend loop will retry
            log.debug("%s: send failed: %s", self.reader, exc)

    def tap(self, uid: str) -> int:
        """A tag (a pawn's or a card's) placed on the pad: a new tag event, sent now and
        kept until acked."""
        with self._lock:
            self.seq += 1
            payload = proto.encode(proto.tag(self.reader, self.boot, self.seq, uid))
            self.unacked[self.seq] = payload
            self._last_send = self.clock()
        self._emit(payload)
        return self.seq

    def hello(self) -> None:
        """Say hello, then resend every unacked event (after connecting or a resync).

        Until the hub acks this boot, :meth:`tick` repeats the hello, so a greeting lost
        while the hub was not listening yet is not the end of the conversation.
        """
        self.greeted = False
        last = next(reversed(self.unacked), 0) if self.unacked else 0
        self._emit(proto.encode(proto.hello(self.reader, self.boot, FIRMWARE, last)))
        self.resend()

    def resend(self) -> None:
        """Send every unacked event again, oldest first."""
        with self._lock:
            payloads = list(self.unacked.values())
            self._last_send = self.clock()
            self.resent += len(payloads)
        for payload in payloads:
            self._emit(payload)

    def set_health(self, **fields: int | None) -> None:
        """Choose what the next heartbeats say of the reader's health: ``rssi`` (dBm),
        ``supply_mv``, ``read_fail`` and ``too_fast`` (counts since boot); ``None`` leaves
        a field out again. Unknown names raise ``ValueError``."""
        unknown = set(fields) - set(proto.HEALTH_FIELDS)
        if unknown:
            raise ValueError(f"not a health field: {sorted(unknown)[0]}")
        for name, value in fields.items():
            if value is None:
                self.health.pop(name, None)
            else:
                self.health[name] = value

    def heartbeat(self) -> None:
        """Tell the hub the reader is alive, with the health chosen (:meth:`set_health`)."""
        uptime = int(self.clock() - self._started)
        self._emit(proto.encode(proto.heartbeat(self.reader, self.boot, uptime,
                                                **self.health)))

    def tick(self) -> None:
        """Resend unacked events (or the hello) when ``resend_interval`` passed without news."""
        if self.clock() - self._last_send < self.resend_interval:
            return
        if self.repeat_hello and not self.greeted and self.write is not None:
            self.hello()
        elif self.unacked:
            self.resend()

    def on_command(self, data: bytes) -> None:
        """Handle one hub-to-reader message."""
        cmd = proto.parse_command(data)
        if cmd is None or cmd.get("reader", self.reader) != self.reader:
            return
        if cmd["type"] == "ack" and cmd.get("boot") == self.boot:
            with self._lock:
                self.acks += 1
                self.greeted = True
                for seq in [s for s in self.unacked if s <= cmd.get("seq", 0)]:
                    del self.unacked[seq]
        elif cmd["type"] == "feedback":
            self.feedback.append(cmd)
        elif cmd["type"] == "resync":
            self.hello()

    @property
    def pending(self) -> int:
        """How many events still wait for an ack."""
        return len(self.unacked)


class VirtualMat(VirtualReader):
    """One cinema mat's protocol state (protocol version 2): its zones, what lies on each
    in the order it arrived, and the ``zones`` messages that report them.

    A hand's move is a state change of the zones it touches: :meth:`set_down` reports the
    zone a tag lands on, :meth:`take_up` the zone it leaves, and :meth:`move` does both in
    the order a real mat reports them (a tag is seen on its new zone after 2 scans and
    missed on its old one after 3, so the landing comes first). Each report is a new
    ``seq``, kept until acked and resent like a tap; every ``hello`` reports every zone
    again (the hub compares, so nothing is played twice).
    """

    def __init__(self, reader: str, zones: int = 4, boot: int = 1, **kwargs: Any) -> None:
        super().__init__(reader, boot, **kwargs)
        self.zones: list[list[str]] = [[] for _ in range(zones)]

    def _report(self, zone: int) -> int:
        with self._lock:
            self.seq += 1
            payload = proto.encode(proto.zones(self.reader, self.boot, self.seq, zone,
                                               self.zones[zone]))  # the newest 16, a count
            self.unacked[self.seq] = payload
            self._last_send = self.clock()
        self._emit(payload)
        return self.seq

    def tap(self, uid: str) -> int:
        """A mat has no pad to tap: use :meth:`set_down`."""
        raise TypeError(f"{self.reader} is a mat: set tags down on its zones")

    def set_down(self, zone: int, *uids: str) -> int:
        """Tags set down on ``zone`` (in this order, after what lies there): the zone's
        new state, reported; its seq."""
        with self._lock:
            self.zones[zone] += [uid for uid in uids if uid not in self.zones[zone]]
        return self._report(zone)

    def take_up(self, *uids: str) -> list[int]:
        """Tags taken off the mat: each zone that held one reports its new state."""
        seqs = []
        for zone, lying in enumerate(self.zones):
            if any(uid in lying for uid in uids):
                with self._lock:
                    self.zones[zone] = [uid for uid in lying if uid not in uids]
                seqs.append(self._report(zone))
        return seqs

    def move(self, uid: str, zone: int) -> list[int]:
        """A tag carried to ``zone`` from wherever it lay: the landing, then the leaving."""
        landed = self.set_down(zone, uid)
        with self._lock:
            left = [z for z, lying in enumerate(self.zones) if z != zone and uid in lying]
            for z in left:
                self.zones[z] = [u for u in self.zones[z] if u != uid]
        return [landed, *(self._report(z) for z in left)]

    def where(self, uid: str) -> int | None:
        """The zone a tag lies on, or None."""
        return next((z for z, lying in enumerate(self.zones) if uid in lying), None)

    def hello(self) -> None:
        """Say hello (version 2), resend every unacked event, then report every zone."""
        self.greeted = False
        last = next(reversed(self.unacked), 0) if self.unacked else 0
        self._emit(proto.encode(proto.hello(self.reader, self.boot, FIRMWARE, last,
                                            version=proto.MAT_VERSION)))
        self.resend()
        for zone in range(len(self.zones)):
            self._report(zone)

    def heartbeat(self) -> None:
        """Alive, as a mat (version 2), with the health chosen (``scan_ms`` among it)."""
        uptime = int(self.clock() - self._started)
        beat = proto.heartbeat(self.reader, self.boot, uptime, **self.health)
        self._emit(proto.encode({**beat, "v": proto.MAT_VERSION}))


class _Bank:
    """Common driving of several virtual readers: a thread that ticks resends."""

    def __init__(self, readers: Iterable[VirtualReader]) -> None:
        self.readers = {r.reader: r for r in readers}
        self._beat_start: float | None = None
        self._beat_at: dict[str, float] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def tap(self, reader: str, uid: str) -> int:
        """Tap a tag (a pawn's or a card's) on one reader."""
        return self.readers[reader].tap(uid)

    def pending(self) -> int:
        """Unacked events over all readers."""
        return sum(r.pending for r in self.readers.values())

    def wait_acked(self, timeout: float) -> bool:
        """Wait until every event is acked; False on timeout."""
        deadline = time.monotonic() + timeout
        while self.pending() and time.monotonic() < deadline:
            time.sleep(0.02)
        return not self.pending()

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    heartbeat_interval = 5.0
    """Seconds between heartbeats of every reader."""

    def resent(self) -> int:
        """Events sent again over all readers (:attr:`VirtualReader.resent`)."""
        return sum(r.resent for r in self.readers.values())

    def beats_due(self, now: float) -> list[VirtualReader]:
        """The readers whose heartbeat is due at ``now``, each then due again
        :attr:`heartbeat_interval` after it was due. The first call sets the phases: reader ``i`` of
        ``n`` first beats ``i / n`` of an interval after it, as readers started at
        different moments do, so that 400 heartbeats never come in the same instant."""
        readers = list(self.readers.values())
        if self._beat_start is None:
            self._beat_start = now
        due = []
        for i, reader in enumerate(readers):
            at = self._beat_at.setdefault(
                reader.reader, self._beat_start + self.heartbeat_interval * i / len(readers))
            if now >= at:  # keep the phase, unless the ticker fell a whole interval behind
                nxt = at + self.heartbeat_interval
                self._beat_at[reader.reader] = nxt if nxt > now else now + self.heartbeat_interval
                due.append(reader)
        return due

    def _ticker(self) -> None:
        """Resend what is due and send the heartbeats that are due, every 50 ms."""
        while not self._stop.wait(0.05):
            for reader in list(self.readers.values()):
                reader.tick()
            for reader in self.beats_due(time.monotonic()):
                reader.heartbeat()

    def stop(self) -> None:
        """Stop the bank's threads."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)


class PtyCable:
    """One virtual USB cable: a pty pair, and a stable symlink to the end the hub opens.

    The reader's side holds the master end. :meth:`plug` (again) makes a new pair behind the
    same name, as a re-plugged USB device gets a new device file; :meth:`unplug` closes both
    ends, so the hub sees the device vanish. Used by the virtual readers here and by the
    firmware's end-to-end tests.
    """

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = self.slave = -1
        self.lock = threading.Lock()
        self.buffer = bytearray()
        self.plugs = 0
        """How many times the cable was plugged in."""

    def plug(self) -> None:
        """Connect (again): a new pty behind the same name."""
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, self.link)
        with self.lock:
            self.master, self.slave = master, slave
        self.plugs += 1

    def unplug(self) -> None:
        """Pull the cable: the device's name goes first, as udev removes a by-id link, and
        then the pty. Closing the pty first would leave the name pointing at a pty number
        the system may hand to another program at once, whose bytes the hub would read."""
        with self.lock:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
            for fd in (self.master, self.slave):
                if fd >= 0:
                    os.close(fd)
            self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        """Send bytes to the hub; ``OSError`` if unplugged or the hub stopped reading."""
        with self.lock:
            if self.master < 0:
                raise OSError("unplugged")
            view = memoryview(data)
            deadline = time.monotonic() + 2
            while view:
                try:
                    view = view[os.write(self.master, view):]
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise OSError("the hub is not reading") from None
                    time.sleep(0.001)


class SerialBank(_Bank):
    """Virtual readers on pseudo-terminals, one per reader, reachable at ``DIR/<reader>``."""

    def __init__(self, readers: Iterable[VirtualReader], directory: str | Path) -> None:
        super().__init__(readers)
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.ptys = {name: PtyCable(self.directory / name) for name in self.readers}
        self._selector = selectors.DefaultSelector()
        self._selector_lock = threading.Lock()

    def path(self, reader: str) -> str:
        """The stable device name of a reader (a symlink to its current pty)."""
        return str(self.ptys[reader].link)

    def device(self, reader: str) -> str:
        """The pty device the symlink points at now."""
        return os.readlink(self.ptys[reader].link)

    def start(self) -> SerialBank:
        """Plug every reader in and start reading the hub's replies."""
        for name in self.readers:
            self.plug(name)
        self._spawn(self._pump, "virtual-serial")
        self._spawn(self._ticker, "virtual-serial-resend")
        return self

    def plug(self, reader: str) -> None:
        """Connect the cable (again): a new pty behind the same stable name."""
        port = self.ptys[reader]
        port.plug()
        self.readers[reader].write = lambda payload: port.write(payload + b"\n")
        with self._selector_lock:
            self._selector.register(port.master, selectors.EVENT_READ, reader)

    def unplug(self, reader: str) -> None:
        """Pull the cable: the pty disappears and the hub sees a read error."""
        port = self.ptys[reader]
        with self._selector_lock, contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(port.master)
        port.unplug()

    def raw(self, reader: str, data: bytes) -> None:
        """Write arbitrary bytes on a reader's line (for bad-input tests)."""
        port = self.ptys[reader]
        with port.lock:
            view = memoryview(data)
            while view:
                try:
                    view = view[os.write(port.master, view):]
                except BlockingIOError:
                    time.sleep(0.001)

    def _pump(self) -> None:
        while not self._stop.is_set():
            with self._selector_lock:
                ready = self._selector.select(0.02) if self._selector.get_map() else None
            if ready is None:
                time.sleep(0.02)
                continue
            for key, _ in ready:
                self._read(key.data, key.fd)

    def _read(self, reader: str, fd: int) -> None:
        port = self.ptys[reader]
        try:
            chunk = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            return
        port.buffer += chunk
        while b"\n" in port.buffer:
            line, _, rest = bytes(port.buffer).partition(b"\n")
            port.buffer = bytearray(rest)
            self.readers[reader].on_command(line)

    def stop(self) -> None:
        """Stop, unplug every reader and remove the symlinks."""
        super().stop()
        for name, port in self.ptys.items():
            self.unplug(name)
            with contextlib.suppress(FileNotFoundError):
                port.link.unlink()


class MqttBank(_Bank):
    """Virtual readers as MQTT clients of one table, with retained status and last will.

    All clients share one network thread that waits on their sockets with an epoll
    selector (paho's own loop uses ``select()``, which stops working past about 340
    clients in one process). The thread also reconnects lost clients with backoff.
    """

    def __init__(self, readers: Iterable[VirtualReader], url: MqttUrl, table: str,
                 logins: dict[str, MqttUrl] | None = None) -> None:
        """``url`` is the broker; ``logins`` gives a reader its own URL (user = reader id, as
        on the hub's own broker), and the others log in with ``url``'s account."""
        super().__init__(readers)
        self.url, self.table = url, table
        self.logins = logins or {}
        self.clients: dict[str, mqtt.Client] = {}
        self._selector = selectors.DefaultSelector()
        self._retry: dict[str, float] = {}
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._stopping = False
        """Set by :meth:`stop`: a client it disconnects is not connected again."""
        for reader in self.readers.values():
            reader.repeat_hello = True

    def start(self) -> MqttBank:
        """Connect every reader (in the background) and start resending."""
        for name, reader in self.readers.items():
            self.clients[name] = self._client(reader)
            self._retry[name] = 0.0
        self._spawn(self._network, "virtual-mqtt")
        self._spawn(self._ticker, "virtual-mqtt-resend")
        return self

    def _client(self, reader: VirtualReader) -> mqtt.Client:
        url = self.logins.get(reader.reader, self.url)
        client = make_client(f"reader-{self.table}-{reader.reader}", url)
        status = topics.topic(self.table, reader.reader, "status")
        client.will_set(status, proto.encode(proto.status(reader.reader, "offline")), 1, True)
        event = topics.topic(self.table, reader.reader, "event")

        def write(payload: bytes) -> None:
            if not client.is_connected():
                raise OSError("not connected")
            client.publish(event, payload, qos=1)
            self._wake()

        def on_connect(c: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
            if reason.is_failure:
                return
            c.subscribe(topics.topic(self.table, reader.reader, "cmd"), qos=1)
            c.publish(status, proto.encode(proto.status(reader.reader, "online")), 1, True)
            reader.hello()

        def on_socket_open(c: mqtt.Client, _u: Any, sock: Any) -> None:
            no_delay(sock)
            self._watch(sock, c, False)

        client.on_connect = on_connect
        client.on_message = lambda _c, _u, msg: reader.on_command(bytes(msg.payload))
        client.on_socket_open = on_socket_open
        client.on_socket_close = lambda _c, _u, sock: self._unwatch(sock)
        client.on_socket_register_write = lambda c, _u, sock: self._watch(sock, c, True)
        client.on_socket_unregister_write = lambda c, _u, sock: self._watch(sock, c, False)
        reader.write = write
        client.connect_async(url.host, url.port, keepalive=15)
        return client

    def _watch(self, sock: Any, client: mqtt.Client, writing: bool) -> None:
        if self._stop.is_set():
            return
        if sock.fileno() < 0:  # closed already (a lost connection, a stop): nothing to watch
            self._forget(sock)
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if writing else 0)
        try:
            try:
                self._selector.modify(sock, events, client)
            except KeyError:
                self._selector.register(sock, events, client)
        except (ValueError, OSError):  # closed since the test above, by the network thread
            self._forget(sock)  # (a broker restart while a tap was being published)
            return
        if writing:  # wake the network thread, which may be waiting with the old mask
            self._wake()

    def _idle(self, sock: Any, client: mqtt.Client) -> None:
        """Stop watching a socket for writing once its client has nothing left to write.

        paho asks for write interest from the thread that publishes and drops it from this
        one, and the two requests can land in the wrong order: the socket then stays watched
        for writing with nothing to write, always ready, and this thread spins (it took two
        thirds of a core with 400 idle readers)."""
        with contextlib.suppress(KeyError, ValueError, OSError):
            if self._selector.get_key(sock).events & selectors.EVENT_WRITE:
                self._selector.modify(sock, selectors.EVENT_READ, client)

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            self._wake_w.send(b"x")

    def _unwatch(self, sock: Any) -> None:
        if self._stop.is_set():
            return
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(sock)
        self._forget(sock)

    def _forget(self, sock: Any) -> None:
        """Drop a socket from the selector even once it is closed (its number is then -1,
        so the selector can only find it by the number it was registered under)."""
        for key in list(self._selector.get_map().values()):
            if key.fileobj is sock:
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._selector.unregister(key.fd)

    def _network(self) -> None:
        misc = 0.0
        while not self._stop.is_set():
            ready = self._selector.select(0.05) if self._selector.get_map() else []
            if not ready:
                time.sleep(0.001)
            for key, mask in ready:
                client = key.data
                if client is None:
                    with contextlib.suppress(BlockingIOError, OSError):
                        self._wake_r.recv(4096)
                    continue
                if mask & selectors.EVENT_READ:
                    client.loop_read()
                if mask & selectors.EVENT_WRITE:
                    client.loop_write()
                    if not client.want_write():
                        self._idle(key.fileobj, client)
            for client in list(self.clients.values()):
                # paho can drop its write interest just as another thread queues a packet
                # (a race between publish() and loop_write()): never leave one waiting
                if client.want_write():
                    client.loop_write()
            if time.monotonic() - misc >= 0.1:
                misc = time.monotonic()
                self._housekeeping()

    def _housekeeping(self) -> None:
        now = time.monotonic()
        for name, client in self.clients.items():
            client.loop_misc()
            if client.is_connected() or now < self._retry[name] or self._stopping:
                continue
            try:
                client.reconnect()
                self._retry[name] = now + 2.0
            except OSError:
                self._retry[name] = now + 1.0

    def raw(self, reader: str, data: bytes) -> None:
        """Publish arbitrary bytes on a reader's event topic (for bad-input tests)."""
        self.clients[reader].publish(topics.topic(self.table, reader, "event"), data, qos=1)

    def wait_connected(self, timeout: float = 10.0) -> bool:
        """Wait until every reader is connected to the broker."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(c.is_connected() for c in self.clients.values()):
                return True
            time.sleep(0.02)
        return False

    def drop(self, reader: str) -> None:
        """Cut a reader's connection abruptly (the broker then publishes its last will)."""
        client = self.clients.pop(reader)
        sock = client.socket()
        if sock is not None:
            self._unwatch(sock)
            sock.close()

    def stop(self, clean: bool = True) -> None:
        """Disconnect every reader (publishing ``offline`` first when ``clean``)."""
        self._stopping = True
        for name, client in self.clients.items():
            if clean and client.is_connected():
                status = topics.topic(self.table, name, "status")
                client.publish(status, proto.encode(proto.status(name, "offline")), 1, True)
            client.disconnect()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(c.socket() for c in self.clients.values()):
            time.sleep(0.01)  # the network thread sends DISCONNECT and paho closes the socket
        super().stop()
