//! The connections' limits, kept where a connection is read and written ([`Limits`], each
//! a flag of `nana serve`).
//!
//! Lines too long to read are answered as every other error: the HTTP library refuses a
//! request line over 64 KiB itself, with an empty 414 and none of the API's headers.
//! [`Guarded`] reads every connection through [`LineGuard`], which answers a line (the request
//! line or a header) longer than [`MAX_LINE`] with a 414, its JSON body and CORS header, and
//! closes the connection. It also closes a connection whose request head, once its first byte
//! has come, is not whole within the header-read timeout: a client that sends its headers a
//! byte at a time (slowloris) holds a connection that long, no longer; one that sends no byte
//! of a request, before its first or after an answer, is closed after the idle timeout; one
//! whose answer cannot be written for the write timeout (a client that does not read it) is
//! closed. [`Guarded`] keeps at most [`Limits::max_connections`] open: beyond them, it stops
//! accepting, so that a new connection waits in the system's listen queue until one closes.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use crate::error::ApiError;

/// The longest line of a request read, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// How long a request's head may take to come whole, from its first byte, by default.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The server's limits. [`Limits::default`] is `nana serve`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once. Beyond them the server accepts no more until one closes: a
    /// new connection waits in the system's listen queue, as under a full server.
    pub max_connections: usize,
    /// How long a request's head may take to come whole, from its first byte.
    pub header_timeout: Duration,
    /// How long a connection may stay open without sending a byte of a request: after it is
    /// opened, and after each answer.
    pub idle_timeout: Duration,
    /// How long a request may run: past it, the answer is a JSON 503 (the work already on the
    /// blocking pool runs to its end, its result dropped).
    pub request_timeout: Duration,
    /// How long a write of an answer may wait on a client that does not read it: past it, the
    /// connection is closed. What one such client holds is then its connection, the socket's
    /// buffers and one answer, for this long.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 4096,
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
        }
    }
}

/// A listener whose connections are read through [`LineGuard`] with the limits, at most
/// `max_connections` of them open.
#[derive(Debug)]
pub struct Guarded {
    listener: TcpListener,
    limits: Limits,
    slots: Arc<Semaphore>,
}

impl Guarded {
    pub fn new(listener: TcpListener, limits: Limits) -> Guarded {
        let slots = Arc::new(Semaphore::new(limits.max_connections.clamp(1, Semaphore::MAX_PERMITS)));
        Guarded { listener, limits, slots }
    }
}

impl axum::serve::Listener for Guarded {
    type Io = LineGuard<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let slot = match self.slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let max = self.limits.max_connections;
                tracing::warn!(target: "nana_server", "{max} connections open: new ones wait until one closes");
                self.slots.clone().acquire_owned().await.expect("the semaphore is never closed")
            }
        };
        let (io, addr) = axum::serve::Listener::accept(&mut self.listener).await;
        (LineGuard::new(io).with_limits(self.limits).holding(slot), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

/// What a connection's read deadline waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// The first byte of a request.
    Idle,
    /// The end of a request's head.
    Head,
}

/// A connection read line by line as it comes: passes every byte on until a line grows past
/// [`MAX_LINE`], then writes a 414 itself and ends the connection; with the timeouts of its
/// [`Limits`].
#[derive(Debug)]
pub struct LineGuard<T> {
    inner: T,
    /// Bytes since the last newline.
    line: usize,
    /// The refusal being written, and how much of it is written.
    refusal: Option<(Vec<u8>, usize)>,
    /// After the refusal, the request's bytes still read and dropped (so that the client reads
    /// the answer before the connection closes): the last four, and how many in all.
    drained: (u32, usize),
    /// The last four bytes read, to find the end of a request's head.
    last: u32,
    /// Whether a request's head has begun and not ended.
    in_head: bool,
    /// Whether nothing has been read yet (the idle timer starts at the first read).
    fresh: bool,
    /// While the connection waits for a request's first byte or the rest of its head: when it
    /// elapses first, the connection is closed.
    deadline: Option<(Pin<Box<Sleep>>, Wait)>,
    /// Set while a write waits on the client: when it elapses first, the connection is closed.
    write_deadline: Option<Pin<Box<Sleep>>>,
    limits: Limits,
    /// The connection's place among [`Limits::max_connections`], given back when it closes.
    _slot: Option<OwnedSemaphorePermit>,
}

/// The most bytes of a refused request read and dropped.
const MAX_DRAIN: usize = 1 << 20;

impl<T> LineGuard<T> {
    /// A guard with the default limits. Its first timer (the idle timeout) starts at the first
    /// read, within the runtime.
    pub fn new(inner: T) -> LineGuard<T> {
        LineGuard {
            inner,
            line: 0,
            refusal: None,
            drained: (0, 0),
            last: 0,
            in_head: false,
            fresh: true,
            deadline: None,
            write_deadline: None,
            limits: Limits::default(),
            _slot: None,
        }
    }

    /// The same guard, with `timeout` for a request's head to come whole.
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> LineGuard<T> {
        self.limits.header_timeout = timeout;
        self
    }

    /// The same guard, with `limits`' timeouts.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> LineGuard<T> {
        self.limits = limits;
        self
    }

    fn holding(mut self, slot: OwnedSemaphorePermit) -> LineGuard<T> {
        self._slot = Some(slot);
        self
    }

    /// Sets the read deadline to `wait`'s timeout from now.
    fn arm(&mut self, wait: Wait) {
        let at = Instant::now()
            + match wait {
                Wait::Idle => self.limits.idle_timeout,
                Wait::Head => self.limits.header_timeout,
            };
        match &mut self.deadline {
            Some((sleep, kind)) => {
                sleep.as_mut().reset(at);
                *kind = wait;
            }
            None => self.deadline = Some((Box::pin(tokio::time::sleep_until(at)), wait)),
        }
    }
}

/// The 414 answer, whole.
fn refusal() -> Vec<u8> {
    let error = ApiError::TooLong(MAX_LINE);
    let body = error.body();
    tracing::info!(target: "nana_server", "a request line over {MAX_LINE} bytes 414");
    format!(
        "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\naccess-control-allow-origin: *\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl<T: AsyncRead + AsyncWrite + Unpin> LineGuard<T> {
    /// Writes the rest of the refusal, then shuts the connection.
    fn poll_refuse(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some((bytes, written)) = &mut self.refusal else { return Poll::Ready(Ok(())) };
        while *written < bytes.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        // The rest of the request, up to the end of its head, is read and dropped: closing a
        // connection with unread bytes would reset it before the client reads the answer.
        let mut scratch = [0u8; 4096];
        while self.drained.0 != u32::from_be_bytes(*b"\r\n\r\n") && self.drained.1 < MAX_DRAIN {
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.inner).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if buf.filled().is_empty() => break,
                Poll::Ready(Ok(())) => {
                    for &b in buf.filled() {
                        self.drained.0 = self.drained.0 << 8 | u32::from(b);
                        if self.drained.0 == u32::from_be_bytes(*b"\r\n\r\n") {
                            break;
                        }
                    }
                    self.drained.1 += buf.filled().len();
                }
                Poll::Ready(Err(_)) => break,
                Poll::Pending => return Poll::Pending,
            }
        }
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncRead for LineGuard<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.refusal.is_some() {
            // Refused: the reader sees the end of the connection once the answer is out.
            return this.poll_refuse(cx).map(|_| Ok(()));
        }
        if std::mem::take(&mut this.fresh) {
            this.arm(Wait::Idle);
        }
        if let Some((deadline, wait)) = &mut this.deadline {
            if deadline.as_mut().poll(cx).is_ready() {
                let wait = *wait;
                this.deadline = None;
                return Poll::Ready(Err(timed_out(wait, &this.limits)));
            }
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        for &b in &buf.filled()[before..] {
            if !this.in_head {
                this.in_head = true;
                this.arm(Wait::Head);
            }
            this.last = this.last << 8 | u32::from(b);
            if this.last == u32::from_be_bytes(*b"\r\n\r\n") || this.last & 0xffff == 0x0a0a {
                // The head is whole: no read deadline while the request is answered.
                this.in_head = false;
                this.deadline = None;
            }
            this.line = if b == b'\n' { 0 } else { this.line + 1 };
            if this.line > MAX_LINE {
                buf.set_filled(before);
                this.refusal = Some((refusal(), 0));
                return this.poll_refuse(cx).map(|_| Ok(()));
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// The error that closes a connection whose read deadline elapsed, logged.
fn timed_out(wait: Wait, limits: &Limits) -> io::Error {
    let message = match wait {
        Wait::Idle => format!("no request in {:?}", limits.idle_timeout),
        Wait::Head => format!("a request head not whole in {:?}", limits.header_timeout),
    };
    tracing::info!(target: "nana_server", "{message}: connection closed");
    io::Error::new(io::ErrorKind::TimedOut, message)
}

impl<T: AsyncWrite + Unpin> LineGuard<T> {
    /// Passes a write's outcome on: progress restarts the idle timer (an answer, or part of
    /// one, is out) and ends the wait on the client; a write that waits arms the write
    /// deadline, and one whose deadline has elapsed closes the connection.
    fn after_write(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match written {
            Poll::Pending => {
                let timeout = self.limits.write_timeout;
                let deadline =
                    self.write_deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                if deadline.as_mut().poll(cx).is_ready() {
                    self.write_deadline = None;
                    tracing::info!(target: "nana_server", "an answer not read in {timeout:?}: connection closed");
                    return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "answer not read")));
                }
                Poll::Pending
            }
            Poll::Ready(Ok(n)) => {
                self.write_deadline = None;
                if n > 0 && !self.in_head {
                    self.arm(Wait::Idle);
                    // Polled here, so that it wakes the connection: its read may be waiting
                    // already, since before the answer was written.
                    if let Some((deadline, _)) = &mut self.deadline {
                        let _ = deadline.as_mut().poll(cx);
                    }
                }
                Poll::Ready(Ok(n))
            }
            other => other,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for LineGuard<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write(cx, data);
        this.after_write(cx, written)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.after_write(cx, written)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
