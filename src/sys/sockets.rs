//! Waiting on many sockets at once: `poll` on Unix, `WSAPoll` on Windows (both through rustix).

use std::io;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
/// A socket (a descriptor on Unix, a socket handle on Windows), as [`ready`] waits on it.
pub use rustix::fd::AsFd as Socket;

/// What a socket is waited on for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interest {
    /// Something to read or accept (or its end).
    Read,
    /// Room to write.
    Write,
}

/// Waits up to `timeout` for any of `sockets` to be ready for what it is waited on for; whether
/// each is (none, when a signal cut the wait short).
pub fn ready(sockets: &[(&dyn Socket, Interest)], timeout: Duration) -> io::Result<Vec<bool>> {
    let mut fds: Vec<PollFd<'_>> = (sockets.iter())
        .map(|(socket, interest)| {
            let flags = match interest {
                Interest::Read => PollFlags::IN,
                Interest::Write => PollFlags::OUT,
            };
            PollFd::from_borrowed_fd(socket.as_fd(), flags)
        })
        .collect();
    let timeout = Timespec::try_from(timeout).ok();
    match poll(&mut fds, timeout.as_ref()) {
        Ok(_) => Ok(fds.iter().map(|fd| !fd.revents().is_empty()).collect()),
        Err(rustix::io::Errno::INTR) => Ok(vec![false; fds.len()]),
        Err(e) => Err(e.into()),
    }
}
