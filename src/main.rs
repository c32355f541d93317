//! The `referee` binary: the command layer (`referee::cli`) does everything, exit status included.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(referee::cli::main())
}
