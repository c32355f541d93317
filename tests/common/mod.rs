//! Helpers shared by the integration tests that run matches through the built binary.
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// One test's workspace: a temporary directory of its own, removed when the test passes and kept
/// (for a look at what it holds) when it fails; and the built referee's commands.
pub struct Workspace {
    dir: PathBuf,
}

impl Workspace {
    /// A fresh, empty directory for the test named `name`.
    pub fn new(name: &str) -> Workspace {
        Workspace {
            dir: temp_dir(name),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `name` in the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the failed test's files are in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// `referee`, the built binary, as assert_cmd runs it: every test file's runner.
pub fn referee() -> assert_cmd::Command {
    cargo_bin_cmd!("referee")
}

/// The built binary as a plain process, for tests that signal it or watch it run.
pub fn referee_process() -> std::process::Command {
    std::process::Command::new(assert_cmd::cargo::cargo_bin!("referee"))
}

/// Where the tests keep what a sandboxed engine must read, since the clone may sit in a folder
/// closed to other users (a home folder is 0700): a folder any user may read, made once per test
/// process, holding the built binary (a hard link, else a copy) and the test engines. Its path
/// has no space (the clone's may), so command lines the tests build name the binary by it.
fn readable_copies() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("referee-test-bin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let engines = dir.join("engines");
        std::fs::create_dir_all(&engines).unwrap();
        let open = |path: &Path, mode| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        };
        open(&dir, 0o755);
        open(&engines, 0o755);
        let built = assert_cmd::cargo::cargo_bin!("referee");
        let binary = dir.join("referee");
        if std::fs::hard_link(built, &binary).is_err() {
            std::fs::copy(built, &binary).unwrap();
        }
        for entry in std::fs::read_dir("tests/engines").unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let copy = engines.join(path.file_name().unwrap());
                std::fs::copy(&path, &copy).unwrap();
                open(&copy, 0o755);
            }
        }
        dir
    })
}

/// The built binary where any user may read it: what a sandboxed engine runs (see
/// [`readable_copies`]).
pub fn shared_referee() -> PathBuf {
    readable_copies().join("referee")
}

/// The test engine `file` (of `tests/engines`) where any user may read it, with its helpers
/// beside it (see [`readable_copies`]).
pub fn shared_engine(file: &str) -> PathBuf {
    readable_copies().join("engines").join(file)
}

/// The engine spec of the built-in bot for `game` named `name`, with `strategy` if given.
pub fn bot_spec(name: &str, game: &str, strategy: Option<&str>) -> String {
    let strategy = strategy
        .map(|s| format!(" --strategy {s}"))
        .unwrap_or_default();
    format!(
        "name={name} cmd='{} bot --game {game}{strategy}'",
        shared_referee().display()
    )
}

/// `dir/engine`, made, holding copies of the test engines `files` (of `tests/engines`): a folder
/// any user may read (the repository may not be), for an engine to run in.
pub fn engine_copies(dir: &Path, files: &[&str]) -> PathBuf {
    let engine = dir.join("engine");
    std::fs::create_dir_all(&engine).unwrap();
    for file in files {
        std::fs::copy(Path::new("tests/engines").join(file), engine.join(file)).unwrap();
    }
    engine
}

/// A fresh directory for one test, left in place; see [`Workspace`] for one that is removed.
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

/// Runs `command`, a run that writes its records to `out`, to success within `secs` seconds, and
/// returns its records, checked by `referee validate`, in game order.
pub fn run_to_records(command: &mut assert_cmd::Command, out: &Path, secs: u64) -> Vec<Value> {
    command
        .arg("--out")
        .arg(out)
        .timeout(std::time::Duration::from_secs(secs))
        .assert()
        .success();
    valid_records(out)
}

/// `referee stats --json` of `files`, which must succeed.
pub fn stats_json<P: AsRef<std::ffi::OsStr>>(files: &[P]) -> Value {
    let output = cargo_bin_cmd!("referee")
        .arg("stats")
        .arg("--json")
        .args(files)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&output).unwrap()
}

/// Whether process `pid` still exists (a zombie counts: it is left behind too, since the referee
/// adopts and reaps its engines' orphans). The portable build adopts none: what it killed is the
/// system's to reap (here, a container's init that may never do so), so a zombie is gone.
pub fn exists(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) if cfg!(feature = "portable") => stat
            .rsplit_once(')')
            .is_none_or(|(_, rest)| !rest.trim_start().starts_with('Z')),
        _ => Path::new(&format!("/proc/{pid}")).exists(),
    }
}

/// Every process id listed in `pids` (one per line; the file may be missing) is gone.
pub fn assert_none_left(pids: &Path) {
    for pid in std::fs::read_to_string(pids).unwrap_or_default().lines() {
        assert!(!exists(pid), "process {pid} was left behind");
    }
}

/// Runs `command` to its end (killing it after `timeout`), with `input` on its stdin if given,
/// calling `sample` with its process id every 20 ms while it runs; returns its output.
pub fn run_sampled(
    command: &mut std::process::Command,
    input: Option<Vec<u8>>,
    timeout: std::time::Duration,
    sample: impl FnMut(u32),
) -> std::process::Output {
    if input.is_some() {
        command.stdin(std::process::Stdio::piped());
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            // The child may stop reading: a broken pipe is fine.
            let _ = std::io::Write::write_all(&mut stdin, &input);
        });
    }
    wait_sampled(child, &format!("{command:?}"), timeout, sample)
}

/// Waits for `child` (started with its stdout and stderr piped) to end, killing it and failing
/// with `what` after `timeout`, calling `sample` with its process id every 20 ms; its output.
pub fn wait_sampled(
    mut child: std::process::Child,
    what: &str,
    timeout: std::time::Duration,
    mut sample: impl FnMut(u32),
) -> std::process::Output {
    use std::io::Read;
    // Read the pipes on threads, so a chatty child never blocks on them.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        sample(child.id());
        if start.elapsed() > timeout {
            child.kill().unwrap();
            panic!("{what} ran past {timeout:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Waits until process `pid` is gone or a zombie (a zombie no longer runs; reaping it is its
/// parent's business), and fails with `what` if it still runs at `deadline`.
pub fn assert_stops_by(pid: &str, deadline: std::time::Instant, what: &str) {
    let running = || state_of(pid).is_some_and(|s| s != 'Z');
    while running() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(!running(), "{what}: process {pid} is still running");
}

/// The peak resident memory of process `pid` so far, in KiB (0 once it is gone).
pub fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The state letter of process `pid` (`Z` for a zombie), or `None` when it is gone.
pub fn state_of(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].trim_start().chars().next()
}

/// The process ids whose parent is `parent`, with their state letters.
pub fn children_of(parent: u32) -> Vec<(u32, char)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
            let state = fields.next()?.chars().next()?;
            let ppid: u32 = fields.next()?.parse().ok()?;
            (ppid == parent).then_some((pid, state))
        })
        .collect()
}

/// Whether bubblewrap can be used here; CI sets `REFEREE_REQUIRE_BWRAP=1` so that the sandbox
/// tests cannot be skipped there.
pub fn bwrap_usable() -> bool {
    let works = std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--unshare-all", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !works {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_BWRAP").is_none(),
            "bubblewrap is required here but `bwrap` does not run"
        );
        eprintln!("skipped: bubblewrap (bwrap) is not installed or cannot run here");
    }
    works
}

/// The running processes (not zombies, not this test) whose command line holds every one of
/// `words`: their ids and command lines, arguments joined by spaces.
pub fn processes_with(words: &[&str]) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'));
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !zombie && words.iter().all(|w| text.contains(w)) {
            found.push((pid, text));
        }
    }
    found
}

/// Whether a command line (as [`processes_with`] gives it) runs Python itself, not a program that
/// names a Python script among its arguments (the referee, naming its engines).
pub fn runs_python(cmdline: &str) -> bool {
    cmdline
        .split(' ')
        .next()
        .is_some_and(|program| program.contains("python"))
}

/// Sends signal `name` (`TERM`, `STOP`, ...) to `pid` with kill(1); whether it was delivered (a
/// process may have ended already).
pub fn send_signal(pid: u32, name: &str) -> bool {
    std::process::Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Every file below `folder`, at any depth, whose extension is one of `extensions`.
pub fn files_under(folder: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder).expect("a folder of the repository");
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if (path.extension()).is_some_and(|ext| extensions.iter().any(|e| ext == *e)) {
                files.push(path);
            }
        }
    }
    files
}
