//! The system's users, as `user=` names them: only Unix has the password database and root.

/// Whether the referee runs as root (effective user 0); never elsewhere than Unix.
pub fn is_root() -> bool {
    #[cfg(unix)]
    {
        nix::unistd::geteuid().is_root()
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The id of the user called `name` in the password database (`None` if there is none, or no
/// such database: elsewhere than Unix).
pub fn uid_of(name: &str) -> Option<u32> {
    #[cfg(unix)]
    {
        match nix::unistd::User::from_name(name) {
            Ok(Some(found)) => Some(found.uid.as_raw()),
            _ => None,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = name;
        None
    }
}

/// The group of the user with id `uid` in the password database (`None` as for [`uid_of`]).
pub fn group_of(uid: u32) -> Option<u32> {
    #[cfg(unix)]
    {
        match nix::unistd::User::from_uid(nix::unistd::Uid::from_raw(uid)) {
            Ok(Some(found)) => Some(found.gid.as_raw()),
            _ => None,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = uid;
        None
    }
}
