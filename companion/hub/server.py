"""The hub's web server: gunicorn, one worker process with threads (``serve``, ``demo``).

Flask-SocketIO's deployment guide names its production servers: gunicorn (here with its
threaded ``gthread`` worker and simple-websocket, so the hub keeps Socket.IO's ``threading``
mode and its own threads), gevent, and eventlet (which its own maintainers no longer advise).
``docs/architecture.md`` ("The web server") has the measurements behind the choice.

How it is run:

- :func:`listen` opens the listening socket in the command's own process, so a port in use
  is a clear error (:class:`PortInUse`) before anything starts; gunicorn then serves on that
  socket (``fd://``).
- **One** worker: Socket.IO needs every request of a client to reach the same process
  (sticky sessions), and gunicorn's load balancing has none. The worker's threads serve the
  requests; a WebSocket holds one thread for its whole life, hence :data:`THREADS`.
- The hub is built **in the worker** (the ``build`` function given to :func:`run`), never in
  gunicorn's master: threads (readers, MQTT, the pushes) and the SQLite connection do not
  survive a ``fork``.
- A stop (Ctrl-C, SIGINT, or SIGTERM from systemd or ``kill``) ends the worker at once,
  running the ``stop`` function that ``build`` returned (the hub flushes and closes its
  database, stops its broker), then the master exits 0. Open WebSockets do not hold the
  stop: their threads would never end by themselves.

``run(..., server="gevent")`` and ``server="werkzeug"`` exist for ``bench/e2e.py``, which
measures the servers side by side (``serve --server NAME``, a hidden option); they are not
for a real table (Werkzeug's is a development server).
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

from flask import Flask

from companion.hub import collector, server_refusals

log = logging.getLogger("companion.hub")

SERVERS = ("gunicorn", "gevent", "werkzeug")
"""The servers :func:`run` knows: the first is the one a real table gets."""

THREADS = 2000
"""The worker's threads, and so its connections at once: a tablet's or a phone's WebSocket
holds one for its whole life, a plain request one for its length (idle threads cost little:
they are only made when needed)."""

KEEPALIVE = 75
"""Seconds an idle HTTP connection stays open for its next request (gunicorn's own default
is 2): a tablet acts every few seconds, and a browser keeps its connection for a minute or
more, so every request would otherwise open a new one (an idle connection waits in the
worker's poller, not in a thread)."""

SWITCH_INTERVAL = os.environ.get("POPCORN_SWITCH_INTERVAL")
"""How long (s) a thread of the worker may hold the interpreter before another may take it
over; unset: Python's own 0.005. A tap's way crosses several threads (the serial link, the
ingest, the notifier, a WebSocket's), each hand-over may wait that long behind a thread
building a view; ``bench/e2e.py --switch 0.005 0.001`` measures both side by side. 1 ms
was no gain at 50 tables and worse at 500 (p99 783 and 451 ms against 346 and 239 in one
run): docs/architecture.md."""

Served = tuple[Flask, Callable[[], None]]
"""What ``build`` returns in the serving process: the app, and the function that stops
everything it started (the hub, readers, a demo's players)."""


class StartError(Exception):
    """``build`` could not start (a database another hub holds, a broker's port in use): its
    message is printed, and :func:`run` returns 2."""


class PortInUse(OSError):
    """The HTTP port is taken (another hub, or another program)."""


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening; :class:`PortInUse` if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(exc.errno, "it is in use by another program (another hub?): "
                            "stop it, or give --port") from exc
        raise
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def listen_or_say(prog: str, host: str, port: int) -> socket.socket | None:
    """:func:`listen`, or None after one line on stderr that says why the command cannot
    listen there (``serve`` and ``demo`` then exit 2)."""
    try:
        return listen(host, port)
    except OSError as exc:
        print(f"{prog}: error: cannot listen on {host} port {port}: {exc.strerror or exc}",
              file=sys.stderr)
        return None


def run(build: Callable[[], Served], listener: socket.socket, server: str = "gunicorn") -> int:
    """Serve the app that ``build`` makes on ``listener`` until stopped; the exit status
    (0 after a stop, 2 when ``build`` raised :class:`StartError`)."""
    if server == "gunicorn":
        return _run_gunicorn(build, listener)
    if server == "gevent":
        return _run_gevent(build, listener)
    if server == "werkzeug":
        return _run_werkzeug(build, listener)
    raise ValueError(f"unknown server {server!r}: one of {', '.join(SERVERS)}")


def async_mode(server: str) -> str:
    """Flask-SocketIO's ``async_mode`` for ``server``."""
    return "gevent" if server == "gevent" else "threading"


# -- gunicorn --------------------------------------------------------------------------------

WORKER_BOOT_ERROR = 3
"""gunicorn's exit status of a worker that failed to boot: its master stops (status 3)."""
APP_LOAD_ERROR = 4
"""gunicorn's exit status of a worker that could not load its app (here: a
:class:`StartError`): its master stops with it, and :func:`run` returns 2."""


def _run_gunicorn(build: Callable[[], Served], listener: socket.socket) -> int:
    from gunicorn.app.base import BaseApplication

    class HubApplication(BaseApplication):
        """gunicorn's documented custom application: our settings, our app."""

        def load_config(self) -> None:
            settings: dict[str, Any] = {
                "bind": [f"fd://{listener.fileno()}"], "workers": 1,
                "worker_class": "gthread", "threads": THREADS,
                "worker_connections": 2 * THREADS, "loglevel": "warning", "accesslog": None,
                "errorlog": "-", "timeout": 120, "graceful_timeout": 10,
                "keepalive": KEEPALIVE,
                "proc_name": "popcorn-companion", "post_fork": _die_with_master,
                "post_worker_init": _worker_ready,
                "worker_exit": _worker_exit, "control_socket_disable": True,
            }
            for key, value in settings.items():
                if key in self.cfg.settings:  # older gunicorns lack the control socket
                    self.cfg.set(key, value)

        def load(self) -> Flask:
            if SWITCH_INTERVAL:
                sys.setswitchinterval(float(SWITCH_INTERVAL))
            try:
                app, stop = build()
            except StartError as exc:  # the master then stops too, with this status
                print(exc, file=sys.stderr, flush=True)
                os._exit(APP_LOAD_ERROR)
            _stops.append(stop)
            collector.tuned()  # after the build: the hub's tables are frozen with the rest
            return app

    try:
        HubApplication().run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        return 2 if code == APP_LOAD_ERROR else code
    return 0


def shutdown() -> None:
    """Stop the server that serves this process, as Ctrl-C would (``demo
    --exit-when-done`` calls this when its game ends)."""
    serving = os.getppid() if _stops else os.getpid()  # gunicorn's master, or this process
    os.kill(serving, signal.SIGTERM)


_stops: list[Callable[[], None]] = []
"""The worker's stop function, once ``build`` has run in it."""


def _die_with_master(arbiter: Any, worker: Any) -> None:
    """gunicorn's ``post_fork`` hook, in the new worker: a master killed outright (SIGKILL,
    an out-of-memory kill) takes the worker with it at once, as a power cut would, instead
    of leaving it to hold the port, the database and the readers for nobody."""
    if not sys.platform.startswith("linux"):
        return
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != arbiter.pid:  # the master died before the call took effect
        os._exit(WORKER_BOOT_ERROR)


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that forked it ends."""


def _worker_ready(worker: Any) -> None:
    """gunicorn's ``post_worker_init`` hook: the stop signals (:func:`_quick_stop`), and the
    server's own refusals answered in JSON (:mod:`.server_refusals`)."""
    _quick_stop(worker)
    server_refusals.install()


def _quick_stop(worker: Any) -> None:
    """SIGTERM stops the worker at once, as SIGINT
    and SIGQUIT do (gunicorn's graceful stop would wait for every open WebSocket to close),
    and the first of them is the only one heard. Ctrl-C and systemd signal the master and
    the worker both, and the master then signals the worker again: a second signal must
    not cut the hub's stop short."""
    def stop(signum: int, frame: Any) -> None:
        for quiet in STOP_SIGNALS:
            signal.signal(quiet, signal.SIG_IGN)
        worker.handle_quit(signum, frame)

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)
"""The signals that stop the worker (and then the master)."""


def _worker_exit(arbiter: Any, worker: Any) -> None:
    """gunicorn's ``worker_exit`` hook, in the worker: stop the hub, then leave at once
    (the threads of open WebSockets would keep the interpreter from exiting). A worker
    that never built its app leaves with gunicorn's boot error, which stops the master
    (instead of starting another worker that would fail the same way)."""
    status = 0 if _stops else WORKER_BOOT_ERROR
    for stop in _stops:
        try:
            stop()
        except Exception:  # noqa: BLE001 - the process ends either way
            log.exception("hub: stop failed")
            status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


# -- the others, for the bench ----------------------------------------------------------------

def _run_gevent(build: Callable[[], Served], listener: socket.socket) -> int:
    """gevent's WSGI server (the process was monkey-patched first: ``companion.__main__``)."""
    from gevent import signal_handler
    from gevent.pywsgi import WSGIServer

    try:
        app, stop = build()
    except StartError as exc:
        print(exc, file=sys.stderr)
        return 2
    http = WSGIServer(listener, app, log=None)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal_handler(signum, http.stop)
    try:
        http.serve_forever()
    finally:
        stop()
    return 0


def _run_werkzeug(build: Callable[[], Served], listener: socket.socket) -> int:
    """Werkzeug's development server: the hub's server before this module, the baseline."""
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    try:
        app, stop = build()
    except StartError as exc:
        print(exc, file=sys.stderr)
        return 2
    host, port = listener.getsockname()[:2]
    http = make_server(host, port, app, threaded=True, fd=listener.fileno())

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        http.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    return 0
