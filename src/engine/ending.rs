//! How an engine's process ended, as every platform can say it.

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
    /// Neither is known.
    Other,
}

impl Ending {
    /// Whether it exited with code 0.
    pub fn success(self) -> bool {
        self == Ending::Code(0)
    }
}
