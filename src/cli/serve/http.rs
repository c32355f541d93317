//! The little HTTP server of `referee serve`: GET and HEAD, one request per connection, every
//! connection polled on one thread without blocking, so that a client that never reads, one that
//! sends a byte a minute, or a thousand of them hold nothing but their own socket: each has a
//! bounded head (8 KiB), a deadline (10 s from its accept), and there are at most 1,000 at once
//! (a new one past that replaces the oldest not yet answered). No path from a request reaches the file system: the handler
//! gets the path as text and answers from memory, or says the answer is not ready: the request
//! then waits, asked again after each `tick`, while the others are served.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::sys::sockets::{Interest, Socket, ready};

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
#[derive(Clone)]
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

impl Answer {
    /// `reply` to be written from its first byte, its body only when `with_body`.
    fn new(reply: Reply, with_body: bool) -> Answer {
        Answer {
            head: head_of(&reply),
            body: reply.body,
            with_body,
            sent: 0,
        }
    }
}

/// One client.
struct Connection {
    stream: TcpStream,
    head: Vec<u8>,
    answer: Option<Answer>,
    /// A request whose answer is not ready: its target and whether the body is sent.
    waiting: Option<(String, bool)>,
    /// Answered, its writing side shut: what the client still sends is read and dropped until it
    /// closes, so that closing does not reset the connection before the answer is read.
    closing: bool,
    deadline: Instant,
}

/// How long an answered connection may linger while the client finishes sending.
const LINGER: Duration = Duration::from_secs(1);

/// Serves `listener` until `stop` is set: `handle` answers each request from its path and query,
/// or says it is not ready (`None`: asked again after the next `tick`); `tick` runs between waits
/// (at least every 100 ms) and says whether it has more to do at once (then the next wait is a
/// look, not a wait).
pub fn serve(
    listener: &TcpListener,
    stop: &AtomicBool,
    hosts: &Hosts,
    mut handle: impl FnMut(&str, &str) -> Option<Reply>,
    mut tick: impl FnMut() -> bool,
) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let mut connections: Vec<Connection> = Vec::new();
    let mut busy = false;
    while !stop.load(Ordering::SeqCst) {
        let ready = wait(listener, &connections, busy)?;
        let now = Instant::now();
        let mut index = 0;
        connections.retain_mut(|connection| {
            index += 1;
            let readied = ready.get(index).copied().unwrap_or(false);
            now < connection.deadline
                && (!readied || step(connection, hosts, &mut handle))
                && (connection.waiting.is_none() || ask_again(connection, &mut handle))
        });
        if ready.first().copied().unwrap_or(false) {
            accept(listener, &mut connections);
        }
        busy = tick();
    }
    Ok(())
}

/// Asks again for the answer a connection waits for; once it is ready, writes what the socket
/// takes. `false` when the connection is done with.
fn ask_again(
    connection: &mut Connection,
    handle: &mut impl FnMut(&str, &str) -> Option<Reply>,
) -> bool {
    let Some((target, with_body)) = &connection.waiting else {
        return true;
    };
    let Some(reply) = ask(handle, target) else {
        return true;
    };
    connection.answer = Some(Answer::new(reply, *with_body));
    connection.waiting = None;
    send(connection)
}

/// The handler's answer for a request's target (its path and query), if it is ready.
fn ask(handle: &mut impl FnMut(&str, &str) -> Option<Reply>, target: &str) -> Option<Reply> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    handle(path, query)
}

/// Waits up to [`WAIT`] (not at all when `busy`) for the listener and the connections; whether
/// each is ready, the listener first.
fn wait(listener: &TcpListener, connections: &[Connection], busy: bool) -> io::Result<Vec<bool>> {
    let mut sockets: Vec<(&dyn Socket, Interest)> = Vec::with_capacity(connections.len() + 1);
    sockets.push((listener, Interest::Read));
    for connection in connections {
        let interest = match (&connection.answer, connection.closing) {
            (Some(_), false) => Interest::Write,
            _ => Interest::Read,
        };
        sockets.push((&connection.stream, interest));
    }
    ready(&sockets, if busy { Duration::ZERO } else { WAIT })
}

/// Takes every connection waiting. With [`MAX_CONNECTIONS`] open, the oldest that has not been
/// answered yet makes room (a client that holds connections open without asking, or asks and
/// waits, is the one that loses them); with none such, the new one is closed.
fn accept(listener: &TcpListener, connections: &mut Vec<Connection>) {
    // Out of descriptors (EMFILE) or any other failure: try again at the next wait.
    while let Ok((stream, _)) = listener.accept() {
        if connections.len() >= MAX_CONNECTIONS {
            let unanswered = (connections.iter().enumerate())
                .filter(|(_, c)| c.answer.is_none())
                .min_by_key(|(_, c)| c.deadline)
                .map(|(i, _)| i);
            match unanswered {
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
            waiting: None,
            closing: false,
            deadline: Instant::now() + CONNECTION_TIME,
        });
    }
}

/// Reads or writes what the connection allows now; `false` when it is done with.
fn step(
    connection: &mut Connection,
    hosts: &Hosts,
    handle: &mut impl FnMut(&str, &str) -> Option<Reply>,
) -> bool {
    if connection.closing || connection.waiting.is_some() {
        // What a client sends after its request is read and dropped.
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
        match answer(&connection.head, hosts, handle) {
            Asked::Incomplete => return true,
            Asked::Later(target, body) => {
                connection.waiting = Some((target, body));
                return true;
            }
            Asked::Now(reply, body) => connection.answer = Some(Answer::new(reply, body)),
        }
    }
    send(connection)
}

/// Writes what the socket takes of the connection's answer; `false` when it is done with.
fn send(connection: &mut Connection) -> bool {
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

/// What a request read so far asks for; with its answer (or its target), whether the body is
/// sent.
enum Asked {
    /// Its head is still coming.
    Incomplete,
    Now(Reply, bool),
    /// The handler's answer is not ready.
    Later(String, bool),
}

/// The answer to the request read so far.
fn answer(
    head: &[u8],
    hosts: &Hosts,
    handle: &mut impl FnMut(&str, &str) -> Option<Reply>,
) -> Asked {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut request = httparse::Request::new(&mut headers);
    let with_body = |request: &httparse::Request| request.method != Some("HEAD");
    let reply = match request.parse(head) {
        Ok(httparse::Status::Partial) if head.len() <= MAX_HEAD => return Asked::Incomplete,
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
                match ask(handle, target) {
                    Some(reply) => reply,
                    None => return Asked::Later(target.to_owned(), with_body(&request)),
                }
            }
            _ => Reply::text(405, "only GET and HEAD"),
        },
    };
    Asked::Now(reply, with_body(&request))
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
