//! The signals that stop the referee (INT, TERM, HUP and QUIT on Unix; elsewhere INT, which is
//! Ctrl-C, and TERM, as the C library reports them there), and the names of signals.

use std::io;

/// The signals that stop the referee; an engine that died of one was likely stopped with it.
#[cfg(unix)]
pub const STOP_SIGNALS: &[i32] = &[
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
];
/// The signals that stop the referee (on Windows no engine is seen to die of a signal).
#[cfg(not(unix))]
pub const STOP_SIGNALS: &[i32] = &[signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];

/// Calls `handle(count, signal)` on a thread of its own for each stop signal the referee
/// receives, `count` of them before it (0 for the first).
pub fn on_stop_signals(mut handle: impl FnMut(usize, i32) + Send + 'static) -> io::Result<()> {
    #[cfg(unix)]
    {
        let mut signals = signal_hook::iterator::Signals::new(STOP_SIGNALS)?;
        std::thread::spawn(move || {
            for (count, signal) in signals.forever().enumerate() {
                handle(count, signal);
            }
        });
    }
    #[cfg(not(unix))]
    {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        // Without a signal iterator, flags raised by the handler are looked at often enough
        // for a person pressing Ctrl-C.
        let flags: Vec<_> = (STOP_SIGNALS.iter())
            .map(|&signal| (signal, Arc::new(AtomicBool::new(false))))
            .collect();
        for (signal, flag) in &flags {
            signal_hook::flag::register(*signal, Arc::clone(flag))?;
        }
        std::thread::spawn(move || {
            let mut count = 0;
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
                for (signal, flag) in &flags {
                    if flag.swap(false, Ordering::SeqCst) {
                        handle(count, *signal);
                        count += 1;
                    }
                }
            }
        });
    }
    Ok(())
}

/// The name of signal `signal` (`SIGKILL`), if it has one here.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    #[cfg(unix)]
    {
        nix::sys::signal::Signal::try_from(signal)
            .ok()
            .map(nix::sys::signal::Signal::as_str)
    }
    #[cfg(not(unix))]
    {
        let _ = signal;
        None
    }
}
