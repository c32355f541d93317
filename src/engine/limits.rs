//! Resource limits an engine runs under: read from its spec's keys, set in the child before it
//! runs (rlimits), and named in the detail of a crash they may have caused.

use crate::engine::ending::Ending;

/// The limits of one engine process (its children share the process count and each gets the
/// others); `None` leaves a limit as the referee has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Address space in bytes (`mem=`): allocations past it fail.
    pub memory: Option<u64>,
    /// CPU seconds (`cpu=`): SIGXCPU at the limit, SIGKILL a second later.
    pub cpu: Option<u64>,
    /// Open files (`files=`).
    pub files: Option<u64>,
    /// Processes of the engine's user (`procs=`): forks past it fail. The kernel counts every
    /// process of the user and exempts root; see `user=`.
    pub procs: Option<u64>,
    /// The largest file it may write, in bytes (`fsize=`): SIGXFSZ past it.
    pub file_size: Option<u64>,
}

/// A limit's value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{key}={value}`: {why}")]
pub struct LimitError {
    key: String,
    value: String,
    why: &'static str,
}

/// The spec keys of the limits.
pub const KEYS: [&str; 5] = ["mem", "cpu", "files", "procs", "fsize"];

impl Limits {
    /// Sets the limit named by spec key `key` (one of [`KEYS`]) from `value`: sizes take a binary
    /// suffix (`256M`, `2G`, `512K`), counts and seconds are whole numbers above 0. `Ok(false)`
    /// for a key that is not a limit.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, LimitError> {
        let error = |why| LimitError {
            key: key.to_owned(),
            value: value.to_owned(),
            why,
        };
        let count = || match value.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(error("a whole number above 0")),
        };
        let size = || parse_size(value).ok_or_else(|| error("a size such as 256M, 2G or 65536"));
        match key {
            "mem" => self.memory = Some(size()?),
            "cpu" => self.cpu = Some(count()?),
            "files" => self.files = Some(count()?),
            "procs" => self.procs = Some(count()?),
            "fsize" => self.file_size = Some(size()?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        *self != Limits::default()
    }

    /// Each limit not set here taken from `defaults`.
    pub fn or(self, defaults: Limits) -> Limits {
        Limits {
            memory: self.memory.or(defaults.memory),
            cpu: self.cpu.or(defaults.cpu),
            files: self.files.or(defaults.files),
            procs: self.procs.or(defaults.procs),
            file_size: self.file_size.or(defaults.file_size),
        }
    }

    /// What the limits say about how a process under them ended: the limit a signal names
    /// (`CPU limit 10 s exceeded`), else the limits in force, since an allocation or a fork
    /// refused shows only as the engine's own failure. `None` without limits or for a clean exit.
    pub fn explain(&self, ending: Ending) -> Option<String> {
        if !self.any() || ending.success() {
            return None;
        }
        let signal = match ending {
            Ending::Signal(signal) => crate::sys::signal_name(signal),
            _ => None,
        };
        match (signal, self.cpu, self.file_size) {
            (Some("SIGXCPU"), Some(seconds), _) => {
                return Some(format!("CPU limit {seconds} s exceeded"));
            }
            (Some("SIGXFSZ"), _, Some(bytes)) => {
                return Some(format!("file size limit {} exceeded", size_text(bytes)));
            }
            _ => {}
        }
        Some(format!("limits: {}", self.describe()))
    }

    /// The limits set, in words: `memory 256 MiB, CPU 10 s`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(bytes) = self.memory {
            parts.push(format!("memory {}", size_text(bytes)));
        }
        if let Some(seconds) = self.cpu {
            parts.push(format!("CPU {seconds} s"));
        }
        if let Some(files) = self.files {
            parts.push(format!("open files {files}"));
        }
        if let Some(procs) = self.procs {
            parts.push(format!("processes {procs}"));
        }
        if let Some(bytes) = self.file_size {
            parts.push(format!("file size {}", size_text(bytes)));
        }
        parts.join(", ")
    }
}

/// `256M`, `2G`, `512K` (binary units, `B` and `iB` optional) or bytes; `None` for 0 or an
/// overflow.
fn parse_size(text: &str) -> Option<u64> {
    let upper = text.to_ascii_uppercase();
    let digits = upper.trim_end_matches('B').trim_end_matches('I');
    let (number, shift) = match digits.chars().last()? {
        'K' => (&digits[..digits.len() - 1], 10),
        'M' => (&digits[..digits.len() - 1], 20),
        'G' => (&digits[..digits.len() - 1], 30),
        'T' => (&digits[..digits.len() - 1], 40),
        _ if digits == upper => (digits, 0),
        _ => return None,
    };
    let n: u64 = number.parse().ok()?;
    n.checked_mul(1 << shift).filter(|&bytes| bytes > 0)
}

/// Bytes in the largest binary unit that divides them: `256 MiB`, `1536 KiB`, `100 bytes`.
fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(parse_size("256M"), Some(256 << 20));
        assert_eq!(parse_size("256MiB"), Some(256 << 20));
        assert_eq!(parse_size("2g"), Some(2 << 30));
        assert_eq!(parse_size("65536"), Some(65536));
        assert_eq!(parse_size("1536K"), Some(1536 << 10));
        for bad in ["", "M", "0", "0M", "-1M", "1.5G", "12Q", "99999999999T"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
        assert_eq!(size_text(256 << 20), "256 MiB");
        assert_eq!(size_text(1536 << 10), "1536 KiB");
        assert_eq!(size_text(1000), "1000 bytes");
    }

    #[test]
    fn keys_set_limits_and_say_what_went_wrong() {
        let mut limits = Limits::default();
        assert_eq!(limits.set("mem", "256M"), Ok(true));
        assert_eq!(limits.set("cpu", "10"), Ok(true));
        assert_eq!(limits.set("name", "x"), Ok(false));
        assert!(limits.set("cpu", "0").is_err());
        assert!(limits.set("procs", "many").is_err());
        assert_eq!(limits.describe(), "memory 256 MiB, CPU 10 s");
        // Only Unix has the CPU limit's signal.
        #[cfg(unix)]
        assert_eq!(
            limits
                .explain(Ending::Signal(nix::libc::SIGXCPU))
                .as_deref(),
            Some("CPU limit 10 s exceeded")
        );
        let code_1 = Ending::Code(1);
        assert_eq!(
            limits.explain(code_1).as_deref(),
            Some("limits: memory 256 MiB, CPU 10 s")
        );
        assert_eq!(limits.explain(Ending::Code(0)), None);
        assert_eq!(Limits::default().explain(code_1), None);
    }
}
