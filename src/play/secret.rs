//! The run secret that deals games with hidden information: 32 random bytes, kept in a file only
//! the referee's user may read, from which every game seed and every engine seed of the run is
//! drawn (docs/random-draws.md), and a public id that names it without revealing it.

use std::io::{self, Write};
use std::path::Path;

use crate::rules::seeded::Stream;

/// A run's secret key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Secret([u8; 32]);

/// The stream of the secret's generator that gives its public id (no game or engine seed uses it).
const ID_STREAM: u64 = u64::MAX;
/// The first stream of engine seeds: far above any game's group.
const ENGINE_STREAMS: u64 = 1 << 63;

/// Why a secret file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// It cannot be read, made or written.
    #[error("secret file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// It does not hold a secret.
    #[error("secret file {path}: expected 64 hexadecimal digits")]
    Malformed {
        /// The file.
        path: String,
    },
    /// Others than its owner may read it: the secret may be known already.
    #[error("secret file {path} may be read by other users (mode {mode:o}): chmod 600 it")]
    Readable {
        /// The file.
        path: String,
        /// Its permission bits.
        mode: u32,
    },
}

impl std::fmt::Debug for Secret {
    /// Never the key itself: debug output ends up in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({})", self.id())
    }
}

impl Secret {
    /// A new secret from the operating system's random source.
    pub fn draw() -> io::Result<Secret> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(io::Error::other)?;
        Ok(Secret(key))
    }

    /// The secret in `path`, or a new one written there (mode 0600) if the file does not exist,
    /// so that a resumed run and every shard of a run deal the same games. A file that others may
    /// read is refused.
    pub fn load_or_create(path: &Path) -> Result<Secret, SecretError> {
        let shown = path.display().to_string();
        let io_error = |source| SecretError::Io {
            path: shown.clone(),
            source,
        };
        match crate::sys::owner_only(&mut std::fs::OpenOptions::new())
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(mut file) => {
                let secret = Secret::draw().map_err(io_error)?;
                writeln!(file, "{}", secret.hex()).map_err(io_error)?;
                file.sync_all().map_err(io_error)?;
                return Ok(secret);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error(e)),
        }
        let meta = std::fs::metadata(path).map_err(io_error)?;
        if let Some(mode) = crate::sys::open_to_others(&meta) {
            return Err(SecretError::Readable { path: shown, mode });
        }
        // A secret file is one short line; anything longer is not one.
        let mut text = String::new();
        io::Read::read_to_string(
            &mut io::Read::take(std::fs::File::open(path).map_err(io_error)?, 200),
            &mut text,
        )
        .map_err(io_error)?;
        Secret::from_hex(text.trim()).ok_or(SecretError::Malformed { path: shown })
    }

    fn from_hex(text: &str) -> Option<Secret> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut key = [0u8; 32];
        for (byte, pair) in key.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(Secret(key))
    }

    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The seed of the games of group `group` (which draws their cards): the first number of
    /// stream `group` of the generator keyed by the secret.
    pub fn game_seed(&self, group: usize) -> u64 {
        Stream::keyed(&self.0, group as u64).next_u64()
    }

    /// The seed engine `seat` gets in game `index`: the first number of stream 2^63 + 8 ×
    /// `index` + `seat`; it tells nothing of any game seed, nor of the secret.
    pub fn engine_seed(&self, index: usize, seat: usize) -> u64 {
        let stream = ENGINE_STREAMS.wrapping_add((index as u64).wrapping_mul(8) + seat as u64);
        Stream::keyed(&self.0, stream).next_u64()
    }

    /// The public name of the secret, in records and progress files: 16 hexadecimal digits of
    /// its last stream, from which neither the secret nor any seed can be worked out.
    pub fn id(&self) -> String {
        format!("{:016x}", Stream::keyed(&self.0, ID_STREAM).next_u64())
    }
}

// File modes are Unix's.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_secret_file_is_made_private_and_read_back_the_same() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.secret");
        let made = Secret::load_or_create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let again = Secret::load_or_create(&path).unwrap();
        assert_eq!(made, again);
        assert_eq!(made.game_seed(3), again.game_seed(3));
        // Streams apart: game seeds, engine seeds and the id differ.
        assert_ne!(made.game_seed(0), made.game_seed(1));
        assert_ne!(made.engine_seed(0, 0), made.engine_seed(0, 1));
        assert_ne!(made.engine_seed(0, 0), made.game_seed(0));
        assert_eq!(made.id().len(), 16);
        assert!(!format!("{made:?}").contains(&made.hex()));

        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = Secret::load_or_create(&path).unwrap_err();
        assert!(refused.to_string().contains("chmod 600"), "{refused}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&path, "not hex\n").unwrap();
        assert!(matches!(
            Secret::load_or_create(&path),
            Err(SecretError::Malformed { .. })
        ));
    }
}
