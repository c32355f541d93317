//! Helpers shared by the integration tests that run matches through the built binary.
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// A fresh directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The records of a `.jsonl` file, checked by `referee validate`, in game order.
pub fn valid_records(path: &Path) -> Vec<Value> {
    cargo_bin_cmd!("referee")
        .arg("validate")
        .arg(path)
        .assert()
        .success();
    let text = std::fs::read_to_string(path).unwrap();
    let mut records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    records.sort_by_key(|r| {
        r["tags"]["game"]
            .as_str()
            .map_or(0, |g| g.parse::<u32>().unwrap())
    });
    records
}

/// Whether process `pid` still exists (a zombie counts: it is left behind too).
pub fn exists(pid: &str) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Every process id listed in `pids` (one per line; the file may be missing) is gone.
pub fn assert_none_left(pids: &Path) {
    for pid in std::fs::read_to_string(pids).unwrap_or_default().lines() {
        assert!(!exists(pid), "process {pid} was left behind");
    }
}
