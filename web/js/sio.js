// A small Socket.IO client (Engine.IO 4 over a WebSocket only), so the dashboard needs no
// CDN and no third-party script. It speaks just what the hub uses: connect to the default
// namespace, emit events, receive events, answer pings, reconnect with backoff.
//
// Packets: Engine.IO "0" open, "2" ping, "3" pong, "4" message; inside a message,
// Socket.IO "0" connect, "2" event ["name", data], "4" connect error.

export class Socket {
  constructor(path = "/socket.io/") {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${proto}//${location.host}${path}?EIO=4&transport=websocket`;
    this.handlers = new Map();
    this.connected = false;
    this.delay = 500;
    this.open();
  }

  /** Call `fn(data)` for each `name` event; "connect" and "disconnect" are local events. */
  on(name, fn) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(fn);
    return this;
  }

  /** Send an event; dropped while disconnected (every "connect" handler re-joins rooms). */
  emit(name, data) {
    if (this.connected) this.ws.send("42" + JSON.stringify([name, data]));
  }

  fire(name, data) {
    for (const fn of this.handlers.get(name) || []) {
      try { fn(data); } catch (err) { console.error(name, err); }
    }
  }

  open() {
    this.ws = new WebSocket(this.url);
    this.ws.onmessage = (msg) => this.receive(String(msg.data));
    this.ws.onclose = () => {
      if (this.connected) this.fire("disconnect");
      this.connected = false;
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  receive(text) {
    const kind = text[0];
    if (kind === "0") this.ws.send("40");
    else if (kind === "2") this.ws.send("3");
    else if (kind === "4") this.message(text.slice(1));
  }

  message(text) {
    if (text[0] === "0") {
      this.connected = true;
      this.delay = 500;
      this.fire("connect");
    } else if (text[0] === "2") {
      const [name, data] = JSON.parse(text.slice(text.indexOf("[")));
      this.fire(name, data);
    }
  }
}
