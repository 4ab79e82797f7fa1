//! Lines too long to read, answered as every other error: the HTTP library refuses a request
//! line over 64 KiB itself, with an empty 414 and none of the API's headers. [`Guarded`] reads
//! every connection through [`LineGuard`], which answers a line (the request line or a header)
//! longer than [`MAX_LINE`] with a 414, its JSON body and CORS header, and closes the connection.
//! It also closes a connection whose request head, once its first byte has come, is not whole
//! within the header-read timeout ([`HEADER_TIMEOUT`] by default): a client that sends its
//! headers a byte at a time (slowloris) holds a connection that long, no longer.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::error::ApiError;

/// The longest line of a request read, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// How long a request's head may take to come whole, from its first byte, by default.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// A listener whose connections are read through [`LineGuard`], with its header-read timeout.
#[derive(Debug)]
pub struct Guarded(pub TcpListener, pub Duration);

impl axum::serve::Listener for Guarded {
    type Io = LineGuard<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (LineGuard::new(io).with_header_timeout(self.1), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// A connection read line by line as it comes: passes every byte on until a line grows past
/// [`MAX_LINE`], then writes a 414 itself and ends the connection.
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
    /// Set from a request's first byte until its head is whole: when it elapses first, the
    /// connection is closed.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
    header_timeout: Duration,
}

/// The most bytes of a refused request read and dropped.
const MAX_DRAIN: usize = 1 << 20;

impl<T> LineGuard<T> {
    pub fn new(inner: T) -> LineGuard<T> {
        LineGuard {
            inner,
            line: 0,
            refusal: None,
            drained: (0, 0),
            last: 0,
            deadline: None,
            header_timeout: HEADER_TIMEOUT,
        }
    }

    /// The same guard, with `timeout` for a request's head to come whole.
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> LineGuard<T> {
        self.header_timeout = timeout;
        self
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
        if let Some(deadline) = &mut this.deadline {
            if deadline.as_mut().poll(cx).is_ready() {
                let timeout = this.header_timeout;
                tracing::info!(target: "nana_server", "a request head not whole in {timeout:?}: connection closed");
                this.deadline = None;
                return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "request head too slow")));
            }
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        for &b in &buf.filled()[before..] {
            if this.deadline.is_none() {
                this.deadline = Some(Box::pin(tokio::time::sleep(this.header_timeout)));
            }
            this.last = this.last << 8 | u32::from(b);
            if this.last == u32::from_be_bytes(*b"\r\n\r\n") || this.last & 0xffff == 0x0a0a {
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

impl<T: AsyncWrite + Unpin> AsyncWrite for LineGuard<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, data)
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
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
