//! What the benches share: the machine line each prints.

/// The CPU model and how many CPUs this process may use.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")?
                .split_once(':')
                .map(|(_, m)| m.trim())
        })
        .unwrap_or("unknown CPU")
        .to_owned();
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    format!("{model}, {cpus} CPUs")
}
