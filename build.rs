//! Links the unwinder into the program instead of loading it as `libgcc_s` at every start.
//!
//! Why: every referee process (a match, each built-in bot, each `referee moves` of a script) paid
//! for loading `libgcc_s`, whose start-up code asks the CPU what it is (`cpuid`, which traps to
//! the host in a virtual machine), though the referee never calls it but to unwind a panic. The
//! same unwinder is linked from `libgcc_eh.a`, as a static build does, placed before the
//! standard library's `-lgcc_s` so that the linker (`--as-needed`) no longer needs the shared one.
//! Only for the command line on Linux with glibc; the library alone (the Python module) is left
//! as the compiler links it.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let cli = std::env::var_os("CARGO_FEATURE_CLI").is_some();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let static_crt = features.split(',').any(|f| f == "crt-static");
    if cli && os == "linux" && env == "gnu" && !static_crt {
        println!("cargo:rustc-link-lib=static:+whole-archive,-bundle=gcc_eh");
    }
}
