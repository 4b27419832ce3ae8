"""A lean HTTP/1.1 keep-alive transport for httpx, used by the Charge API client.

Why: httpcore writes the request head and body in two socket writes and goes through anyio
for each; for small form POSTs that doubles the system calls and wake-ups on both sides. Here
a request is one write, a pool keeps idle connections per origin, and responses are read with
``Content-Length`` or chunked framing. Exceptions are httpx's own, so the client can tell
"never sent" (``ConnectError``, ``ConnectTimeout``, ``PoolTimeout``) from "maybe sent"
(``ReadTimeout``, ``RemoteProtocolError``).
"""

from __future__ import annotations

import asyncio
import ssl
from collections import defaultdict

import httpx

MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 32 * 1024 * 1024


class _Conn:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    def close(self) -> None:
        self.writer.close()


class LeanTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 only; TLS through ``ssl`` for https origins."""

    def __init__(self, *, max_connections: int = 20, connect_timeout_s: float = 5.0,
                 read_timeout_s: float = 30.0, ssl_context: ssl.SSLContext | None = None) -> None:
        self.connect_timeout_s = connect_timeout_s
        self.read_timeout_s = read_timeout_s
        self.ssl_context = ssl_context
        self._idle: dict[tuple[str, str, int], list[_Conn]] = defaultdict(list)
        self._slots = asyncio.Semaphore(max_connections) if max_connections else None
        self._max = max_connections

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        scheme = url.scheme
        port = url.port or (443 if scheme == "https" else 80)
        origin = (scheme, url.host, port)
        body = await request.aread()
        head = [f"{request.method} ".encode() + url.raw_path + b" HTTP/1.1\r\n"]
        for name, value in request.headers.raw:
            head.append(name + b": " + value + b"\r\n")
        if b"content-length" not in {n.lower() for n, _ in request.headers.raw} and \
                (body or request.method in ("POST", "PUT", "PATCH")):
            head.append(b"Content-Length: " + str(len(body)).encode() + b"\r\n")
        payload = b"".join(head) + b"\r\n" + body
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                await self._acquire()
        except TimeoutError:
            raise httpx.PoolTimeout("no free connection", request=request) from None
        try:
            idle = self._idle[origin]
            while idle:
                conn = idle.pop()
                if conn.reader.at_eof() or conn.writer.is_closing():
                    conn.close()
                    continue
                try:
                    return await self._exchange(conn, origin, payload, request)
                except _StaleConnection:
                    continue  # the server closed it while idle, before reading anything of ours
            conn = await self._connect(origin, request)
            try:
                return await self._exchange(conn, origin, payload, request)
            except _StaleConnection:
                raise httpx.RemoteProtocolError("the server closed the connection without answering",
                                                request=request) from None
        finally:
            self._release()

    async def _acquire(self) -> None:
        if self._slots is not None:
            await self._slots.acquire()

    def _release(self) -> None:
        if self._slots is not None:
            self._slots.release()

    async def _connect(self, origin: tuple[str, str, int], request: httpx.Request) -> _Conn:
        scheme, host, port = origin
        context = None
        if scheme == "https":
            context = self.ssl_context or ssl.create_default_context()
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                reader, writer = await asyncio.open_connection(
                    host, port, ssl=context, server_hostname=host if context else None,
                    limit=MAX_HEADER_BYTES)
        except TimeoutError:
            raise httpx.ConnectTimeout(f"connecting to {host}:{port} timed out", request=request) from None
        except OSError as exc:
            raise httpx.ConnectError(f"cannot connect to {host}:{port}: {exc.strerror or exc}",
                                     request=request) from None
        return _Conn(reader, writer)

    async def _exchange(self, conn: _Conn, origin: tuple[str, str, int], payload: bytes,
                        request: httpx.Request) -> httpx.Response:
        got_bytes = False
        try:
            conn.writer.write(payload)
            async with asyncio.timeout(self.read_timeout_s):
                await conn.writer.drain()
                status_line = await conn.reader.readline()
                if not status_line:
                    raise _StaleConnection
                got_bytes = True
                parts = status_line.split(b" ", 2)
                if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
                    raise httpx.RemoteProtocolError("malformed status line", request=request)
                status = int(parts[1])
                headers: list[tuple[bytes, bytes]] = []
                length: int | None = None
                chunked = False
                close = parts[0] == b"HTTP/1.0"
                while True:
                    line = await conn.reader.readline()
                    if line in (b"\r\n", b"\n"):
                        break
                    if not line:
                        raise httpx.RemoteProtocolError("connection closed in the headers", request=request)
                    name, _, value = line.partition(b":")
                    name, value = name.strip(), value.strip()
                    headers.append((name, value))
                    lower = name.lower()
                    if lower == b"content-length":
                        length = int(value)
                    elif lower == b"transfer-encoding" and b"chunked" in value.lower():
                        chunked = True
                    elif lower == b"connection":
                        close = close or value.lower() == b"close"
                if request.method == "HEAD" or status in (204, 304) or 100 <= status < 200:
                    content = b""
                elif chunked:
                    content = await self._chunked(conn.reader, request)
                elif length is not None:
                    if length > MAX_BODY_BYTES:
                        raise httpx.RemoteProtocolError("answer too large", request=request)
                    content = await conn.reader.readexactly(length)
                else:
                    content = await conn.reader.read(MAX_BODY_BYTES)
                    close = True
        except _StaleConnection:
            conn.close()
            raise
        except TimeoutError:
            conn.close()
            raise httpx.ReadTimeout("no answer in time", request=request) from None
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            conn.close()
            if not got_bytes and isinstance(exc, ConnectionError):
                raise _StaleConnection from None
            raise httpx.RemoteProtocolError(f"connection broken: {type(exc).__name__}",
                                            request=request) from None
        except BaseException:
            conn.close()
            raise
        if close:
            conn.close()
        elif len(self._idle[origin]) < max(self._max, 1):
            self._idle[origin].append(conn)
        else:
            conn.close()
        return httpx.Response(status, headers=headers, content=content, request=request)

    @staticmethod
    async def _chunked(reader: asyncio.StreamReader, request: httpx.Request) -> bytes:
        out = bytearray()
        while True:
            size_line = await reader.readline()
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
                return bytes(out)
            out += await reader.readexactly(size)
            await reader.readexactly(2)
            if len(out) > MAX_BODY_BYTES:
                raise httpx.RemoteProtocolError("answer too large", request=request)

    async def aclose(self) -> None:
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()


class _StaleConnection(Exception):
    """A kept-alive connection the server had closed: nothing of the request was read."""
