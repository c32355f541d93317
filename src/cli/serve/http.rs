//! The little HTTP server of `referee serve`: GET and HEAD, one request per connection, every
//! connection polled on one thread without blocking, so that a client that never reads, one that
//! sends a byte a minute, or a thousand of them hold nothing but their own socket: each has a
//! bounded head (8 KiB), a deadline (10 s from its accept), and there are at most 1,000 at once
//! (a new one past that replaces the oldest that has not asked anything yet). No path from a request reaches the file system: the handler
//! gets the path as text and answers from memory.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::hosts::Hosts;

/// The most connections open at once.
pub const MAX_CONNECTIONS: usize = 1000;
/// The most bytes of a request's head (its line and headers).
pub const MAX_HEAD: usize = 8192;
/// How long a connection may take, from its accept to the last byte of its answer.
pub const CONNECTION_TIME: Duration = Duration::from_secs(10);
/// How long one wait for the sockets lasts: the stop flag and `tick` are seen this often.
const WAIT: Duration = Duration::from_millis(100);

/// An answer: its status, content type and body.
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// Its `Content-Type`.
    pub kind: &'static str,
    /// The body, shared by every client that gets the same one.
    pub body: Arc<Vec<u8>>,
}

impl Reply {
    /// A short plain-text answer with `status`.
    pub fn text(status: u16, text: &str) -> Reply {
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: Arc::new(format!("{text}\n").into_bytes()),
        }
    }
}

/// An answer being written: its head, its body, whether the body is sent (not for HEAD), and how
/// much of the whole has gone.
struct Answer {
    head: Vec<u8>,
    body: Arc<Vec<u8>>,
    with_body: bool,
    sent: usize,
}

/// One client.
struct Connection {
    stream: TcpStream,
    head: Vec<u8>,
    answer: Option<Answer>,
    /// Answered, its writing side shut: what the client still sends is read and dropped until it
    /// closes, so that closing does not reset the connection before the answer is read.
    closing: bool,
    deadline: Instant,
}

/// How long an answered connection may linger while the client finishes sending.
const LINGER: Duration = Duration::from_secs(1);

/// Serves `listener` until `stop` is set: `handle` answers each request from its path and query;
/// `tick` runs between waits (at least every 100 ms).
pub fn serve(
    listener: &TcpListener,
    stop: &AtomicBool,
    hosts: &Hosts,
    mut handle: impl FnMut(&str, &str) -> Reply,
    mut tick: impl FnMut(),
) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let mut connections: Vec<Connection> = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let ready = wait(listener, &connections)?;
        let now = Instant::now();
        let mut index = 0;
        connections.retain_mut(|connection| {
            index += 1;
            let readied = ready.get(index).copied().unwrap_or(false);
            now < connection.deadline && (!readied || step(connection, hosts, &mut handle))
        });
        if ready.first().copied().unwrap_or(false) {
            accept(listener, &mut connections);
        }
        tick();
    }
    Ok(())
}

/// Waits up to [`WAIT`] for the listener and the connections; whether each is ready, the listener
/// first.
fn wait(listener: &TcpListener, connections: &[Connection]) -> io::Result<Vec<bool>> {
    let mut fds = Vec::with_capacity(connections.len() + 1);
    fds.push(PollFd::new(listener, PollFlags::IN));
    for connection in connections {
        let flags = match (&connection.answer, connection.closing) {
            (Some(_), false) => PollFlags::OUT,
            _ => PollFlags::IN,
        };
        fds.push(PollFd::new(&connection.stream, flags));
    }
    let timeout = Timespec::try_from(WAIT).ok();
    match poll(&mut fds, timeout.as_ref()) {
        Ok(_) => {}
        Err(rustix::io::Errno::INTR) => return Ok(vec![false; fds.len()]),
        Err(e) => return Err(e.into()),
    }
    Ok(fds.iter().map(|fd| !fd.revents().is_empty()).collect())
}

/// Takes every connection waiting. With [`MAX_CONNECTIONS`] open, the oldest that has not sent
/// its whole request yet makes room (a client that holds connections open without asking is
/// the one that loses them); with none such, the new one is closed.
fn accept(listener: &TcpListener, connections: &mut Vec<Connection>) {
    // Out of descriptors (EMFILE) or any other failure: try again at the next wait.
    while let Ok((stream, _)) = listener.accept() {
        if connections.len() >= MAX_CONNECTIONS {
            let idle = (connections.iter().enumerate())
                .filter(|(_, c)| c.answer.is_none())
                .min_by_key(|(_, c)| c.deadline)
                .map(|(i, _)| i);
            match idle {
                Some(oldest) => drop(connections.remove(oldest)),
                None => continue,
            }
        }
        if stream.set_nonblocking(true).is_err() {
            continue;
        }
        connections.push(Connection {
            stream,
            head: Vec::new(),
            answer: None,
            closing: false,
            deadline: Instant::now() + CONNECTION_TIME,
        });
    }
}

/// Reads or writes what the connection allows now; `false` when it is done with.
fn step(
    connection: &mut Connection,
    hosts: &Hosts,
    handle: &mut impl FnMut(&str, &str) -> Reply,
) -> bool {
    if connection.closing {
        let mut chunk = [0u8; 2048];
        return match connection.stream.read(&mut chunk) {
            Ok(0) => false,
            Ok(_) => true,
            Err(e) => e.kind() == io::ErrorKind::WouldBlock,
        };
    }
    if connection.answer.is_none() {
        let mut chunk = [0u8; 2048];
        let room = MAX_HEAD + 1 - connection.head.len();
        let read = match connection.stream.read(&mut chunk[..room.min(2048)]) {
            Ok(0) => return false,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(_) => return false,
        };
        connection.head.extend_from_slice(&chunk[..read]);
        let Some((reply, body)) = answer(&connection.head, hosts, handle) else {
            return true;
        };
        connection.answer = Some(Answer {
            head: head_of(&reply),
            body: reply.body,
            with_body: body,
            sent: 0,
        });
    }
    let Some(Answer {
        head,
        body,
        with_body,
        sent,
    }) = &mut connection.answer
    else {
        return false;
    };
    loop {
        let part = match *sent < head.len() {
            true => &head[*sent..],
            false if *with_body && *sent - head.len() < body.len() => &body[*sent - head.len()..],
            false => {
                let _ = connection.stream.shutdown(std::net::Shutdown::Write);
                connection.closing = true;
                connection.deadline = connection.deadline.min(Instant::now() + LINGER);
                return true;
            }
        };
        match connection.stream.write(part) {
            Ok(0) => return false,
            Ok(n) => *sent += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(_) => return false,
        }
    }
}

/// The answer to the request read so far, and whether its body is sent; `None` while its head
/// is still coming.
fn answer(
    head: &[u8],
    hosts: &Hosts,
    handle: &mut impl FnMut(&str, &str) -> Reply,
) -> Option<(Reply, bool)> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut request = httparse::Request::new(&mut headers);
    let reply = match request.parse(head) {
        Ok(httparse::Status::Partial) if head.len() <= MAX_HEAD => return None,
        Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
            Reply::text(431, "request head too large")
        }
        Err(_) => Reply::text(400, "bad request"),
        Ok(httparse::Status::Complete(_)) => match request.method {
            // A name that is not the server's: a page of another site whose name was made to
            // resolve here (DNS rebinding) is refused.
            Some("GET" | "HEAD") if !host_of(&request).is_some_and(|h| hosts.allows(h)) => {
                Reply::text(
                    403,
                    "unknown Host: name this server by its address, localhost, or a name given \
                     to --allow-host",
                )
            }
            Some("GET" | "HEAD") => {
                let target = request.path.unwrap_or("/");
                let (path, query) = target.split_once('?').unwrap_or((target, ""));
                handle(path, query)
            }
            _ => Reply::text(405, "only GET and HEAD"),
        },
    };
    Some((reply, request.method != Some("HEAD")))
}

/// The request's `Host`, if it has one (and one only).
fn host_of<'a>(request: &httparse::Request<'_, 'a>) -> Option<&'a str> {
    let mut hosts = request
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"));
    let host = hosts.next()?;
    match hosts.next() {
        Some(_) => None,
        None => std::str::from_utf8(host.value).ok(),
    }
}

/// The status line and headers of `reply`: no caching, no sniffing, nothing loaded from
/// elsewhere, one request per connection.
fn head_of(reply: &Reply) -> Vec<u8> {
    let reason = match reply.status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    };
    format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; \
         style-src 'unsafe-inline'; connect-src 'self'; img-src data:\r\n\
         Connection: close\r\n\r\n",
        reply.status,
        reply.kind,
        reply.body.len()
    )
    .into_bytes()
}
