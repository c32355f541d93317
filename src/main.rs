//! The `referee` binary: the command layer (`referee::cli`) does everything, exit status included.
//!
//! The program starts as a C program does (`#![no_main]`), without the standard library's runtime
//! set-up, and does itself the two parts of it the referee needs: standard input, output and error
//! open (on `/dev/null` if they were closed, so that no file the referee opens takes their place
//! and receives what it prints), and SIGPIPE ignored (a closed pipe is an error to handle, not
//! death). What is left out is the stack-overflow report (an overflow still stops the program,
//! by SIGSEGV) and its alternate signal stacks: a stack for every thread, and a read of
//! `/proc/self/maps` at the start. Each referee process (a match, every built-in bot, every
//! `referee moves` of a script) starts about 0.1 ms sooner (`referee --version` 0.97 -> 0.85 ms),
//! a one-game match with its threads about 0.3 ms (1.19 -> 0.88 ms over the C driver).
//!
//! That start is glibc's alone: there the standard library reads the command line as the C
//! library starts the program. Elsewhere (musl, macOS, Windows) the program has the standard
//! library's own `main`, which does both parts itself.

// The program's start is system code: its `unsafe` is said sound where it is.
#![allow(unsafe_code)]
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

#[cfg(all(target_os = "linux", target_env = "gnu"))]
use std::ffi::{c_char, c_int};
#[cfg(all(target_os = "linux", target_env = "gnu"))]
use std::io::Write;

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(referee::cli::main())
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    standard_descriptors_open();
    // SAFETY: ignoring a signal installs no handler code.
    let ignored = unsafe {
        use nix::sys::signal::{SigHandler, Signal, signal};
        signal(Signal::SIGPIPE, SigHandler::SigIgn)
    };
    if ignored.is_err() {
        std::process::abort();
    }
    let status = referee::cli::main();
    // The runtime's clean-up, which flushes standard output, runs only after a Rust `main`.
    let _ = std::io::stdout().flush();
    c_int::from(status)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
/// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, as the standard library's
/// start does; aborts if it cannot. An open takes the lowest free descriptor: one above 2 says
/// all three are open, and is closed again.
fn standard_descriptors_open() {
    use rustix::fd::AsRawFd;
    use rustix::fs::{Mode, OFlags, open};
    loop {
        match open("/dev/null", OFlags::RDWR, Mode::empty()) {
            // It stays open for the program's life, in the place of the closed one.
            Ok(null) if null.as_raw_fd() <= 2 => std::mem::forget(null),
            Ok(_) => return,
            Err(_) => std::process::abort(),
        }
    }
}
