//! The `referee` binary: the command layer (`referee::cli`) does everything, exit status included.

fn main() -> std::process::ExitCode {
    referee::cli::main()
}
