//! What differs between operating systems outside the engine processes' own room
//! (`engine::sys`): files only their owner may read, whether two paths name one file, the signals
//! that stop the referee, user names, the open-files limit, command lines as words, waiting on
//! sockets. Each has its Unix path and a portable one beside it.

mod files;
#[cfg(feature = "cli")]
mod limits;
#[cfg(feature = "cli")]
mod signals;
#[cfg(feature = "cli")]
pub mod sockets;
#[cfg(feature = "cli")]
mod users;
#[cfg(feature = "cli")]
pub mod words;

pub use files::{open_to_others, owner_only, same_file};
#[cfg(feature = "cli")]
pub use limits::raise_open_files;
#[cfg(feature = "cli")]
pub use signals::{STOP_SIGNALS, on_stop_signals, signal_name};
#[cfg(feature = "cli")]
pub use users::{group_of, is_root, uid_of};
