"""A loopback TCP proxy that breaks connections for real (issue 11: "connection reset
during IDLE and mid-FETCH").

It sits between the daemon and an IMAP server (embedded or Dovecot) and forwards bytes both
ways. `cut_after(marker, n)` resets the connection (RST: SO_LINGER 0, so the client reads
ECONNRESET, not an orderly end of stream) once the server has sent `marker` and `n` bytes
more, that is in the middle of a server response; `cut_all()` resets every live connection
now (an IDLE waiting for news). The server side is reset too, as a broken network does.
"""

from __future__ import annotations

import socket
import struct
import threading
from types import TracebackType


def _reset(sock: socket.socket) -> None:
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class _Link:
    """One client connection and its upstream twin, served by one thread: only that thread
    touches the sockets, so when it closes them no other thread's pending recv() keeps them
    open (on Linux a socket closed under a blocked recv stays connected, and sends no RST)."""

    def __init__(self, proxy: TcpProxy, client: socket.socket, server: socket.socket) -> None:
        self.proxy, self.client, self.server = proxy, client, server
        self.wanted = threading.Event()  # cut asked for by another thread
        self.closed = threading.Event()
        self.seen = b""  # the server's last bytes, to find the marker across reads

    @property
    def dead(self) -> bool:
        return self.wanted.is_set() or self.closed.is_set()

    def serve(self) -> None:
        import selectors

        rst = True
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(self.client, selectors.EVENT_READ, self.server)
                selector.register(self.server, selectors.EVENT_READ, self.client)
                while not self.wanted.is_set():
                    for key, _ in selector.select(0.05):
                        src, dst = key.fileobj, key.data
                        assert isinstance(src, socket.socket)
                        data = src.recv(65536)
                        if not data:  # an orderly close on one side: pass it on as one
                            rst = False
                            return
                        if src is self.server:
                            keep = self.proxy._cut_point(self, data)
                            if keep is not None:
                                dst.sendall(data[:keep])
                                return
                        dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (self.client, self.server):
                _reset(sock) if rst else sock.close()
            self.closed.set()


class TcpProxy:
    """127.0.0.1:`port` forwards to `host`:`upstream_port`."""

    def __init__(self, upstream_port: int, host: str = "127.0.0.1") -> None:
        self.upstream = (host, upstream_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.links: list[_Link] = []
        self.connections = 0  # accepted so far: a reconnection shows here
        self.cuts = 0
        self._plan: tuple[bytes, int] | None = None
        self._lock = threading.Lock()
        self.cut_done = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=10)
                server.settimeout(None)
            except OSError:
                _reset(client)
                continue
            link = _Link(self, client, server)
            with self._lock:
                self.links.append(link)
                self.connections += 1
            threading.Thread(target=link.serve, daemon=True).start()

    def cut_after(self, marker: bytes, n: int) -> None:
        """Reset the connection once the server has sent `marker` and then `n` bytes (once)."""
        with self._lock:
            self._plan = (marker, n)
            self.cut_done.clear()

    def _cut_point(self, link: _Link, data: bytes) -> int | None:
        """How much of `data` to pass before cutting `link`, or None to pass it all."""
        with self._lock:
            if self._plan is None:
                return None
            marker, n = self._plan
            window = link.seen + data
            at = window.find(marker)
            if at < 0:
                link.seen = window[-len(marker):]
                return None
            end = at + len(marker) + n - len(link.seen)  # in `data`
            if end > len(data):
                # not yet n bytes after the marker: count them against the next read
                self._plan = (b"", end - len(data))
                link.seen = b""
                return None
            self._plan = None
            self.cuts += 1
        self.cut_done.set()
        return max(end, 0)

    def cut_all(self) -> int:
        """Reset every live connection now; returns how many."""
        with self._lock:
            live = [link for link in self.links if not link.dead]
            self.cuts += len(live)
        for link in live:
            link.wanted.set()
        for link in live:
            link.closed.wait(10)
        return len(live)

    def close(self) -> None:
        self.listener.close()
        self.cut_all()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
