//! The sandbox attacked: one game per attack (tests/engines/attack.py) by an engine under
//! `sandbox=bwrap`, each asserting that the attack failed, that the game was adjudicated (the
//! attacker's crash, with its reason), and that nothing the attacker started is left running.
//! Where an attack on an engine outside the sandbox succeeds, the test shows that too, so that it
//! could fail.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{
    Workspace, bwrap_usable, processes_with, referee, runs_python, send_signal, valid_records,
};
use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;

/// A directory any user may read holding the attack engine, for the engine to run in.
fn engine_dir(dir: &Path) -> PathBuf {
    common::engine_copies(dir, &["attack.py", "relay.py"])
}

fn bot() -> String {
    format!(
        "name=bot cmd='{} bot --game pegs'",
        common::shared_referee().display()
    )
}

/// The referee's command for one Pegs game of the attack engine trying `attack` (with the spec
/// keys `keys`) against the built-in bot, its records in `dir/NAME.jsonl`.
fn attack_command(
    dir: &Path,
    attack: &str,
    keys: &str,
    games: usize,
) -> (std::process::Command, PathBuf) {
    let name: String = attack
        .chars()
        .take(60)
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let out = dir.join(format!("{name}-{}.jsonl", keys.len()));
    let engine = engine_dir(dir);
    let attacker = format!(
        "name=attacker cmd='python3 attack.py {attack}' dir={} env=REFEREE {keys}",
        engine.display()
    );
    // The program any user may run: one test runs it as an unprivileged organiser.
    let mut command = std::process::Command::new(common::shared_referee());
    command
        .env("REFEREE", common::shared_referee())
        .env("REFEREE_TEST_SECRET", "the organiser's token")
        .args([
            "match",
            "--game",
            "pegs",
            "--seed",
            "2",
            "--games",
            &games.to_string(),
        ])
        .args(["--movetime", "5000", "--engine", &attacker])
        .args(["--engine", &bot(), "--log-dir"])
        .arg(dir.join("logs"))
        .arg("--out")
        .arg(&out);
    (command, out)
}

/// Plays the game of `attack` (see [`attack_command`]); returns its record.
fn attack_game(dir: &Path, attack: &str, keys: &str) -> Value {
    let (command, out) = attack_command(dir, attack, keys, 1);
    assert_cmd::Command::from_std(command)
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    valid_records(&out).remove(0)
}

/// The attacker's stderr as its verdict quotes it, and whether the attack was blocked: the game
/// then ended with the attacker's crash, giving the reason.
fn blocked(record: &Value) -> (bool, String) {
    let end = &record["end"];
    let detail = end["detail"].as_str().unwrap_or_default().to_owned();
    let attacker_seat = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == "attacker")
        .unwrap() as u64;
    let crashed = end["verdict"] == "crash" && end["seat"] == attacker_seat;
    (crashed && detail.contains("blocked:"), detail)
}

/// Each attack in `attacks` fails in the sandbox (with `keys` besides `sandbox=bwrap`).
fn assert_blocked(name: &str, attacks: &[String], keys: &str) {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new(name);
    let dir = work.dir().to_path_buf();
    for attack in attacks {
        let record = attack_game(&dir, attack, &format!("sandbox=bwrap {keys}"));
        let (blocked, detail) = blocked(&record);
        assert!(blocked, "{attack} was not blocked: {detail}\n{record}");
        eprintln!("{attack}: {detail}");
        assert_no_process_with(&[attack, "attack.py"]);
    }
}

/// No process on the machine has all of `words` in its command line, within 5 s.
fn assert_no_process_with(words: &[&str]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_with(words);
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "processes left behind: {left:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn strings(attacks: &[&str]) -> Vec<String> {
    attacks
        .iter()
        .map(std::string::ToString::to_string)
        .collect()
}

#[test]
fn system_calls_that_leave_or_watch_the_sandbox_are_refused() {
    assert_blocked(
        "syscalls",
        &strings(&[
            "ptrace",
            "vm_read",
            "userns",
            "clone_userns",
            "mountns",
            "mount",
            "keyctl",
            "add_key",
            "bpf",
            "io_uring",
            "perf",
            "userfaultfd",
            "kexec",
            "module",
            "handle",
            "hostname",
        ]),
        "",
    );
    if !bwrap_usable() {
        return;
    }
    // An unprivileged engine outside the sandbox succeeds with these, so the games can tell.
    let work = Workspace::new("syscalls-free");
    let dir = work.dir().to_path_buf();
    for attack in [
        "ptrace",
        "userns",
        "clone_userns",
        "keyctl",
        "add_key",
        "io_uring",
    ] {
        let record = attack_game(&dir, attack, "user=65534");
        assert!(
            !blocked(&record).0,
            "{attack} outside the sandbox: {record}"
        );
    }
}

#[test]
fn the_host_files_sockets_and_secrets_are_out_of_reach() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("host");
    let dir = work.dir().to_path_buf();
    let engine = engine_dir(&dir);
    // A host unix socket where the engine can see it (its own directory), and an abstract one.
    let socket = engine.join("host.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    std::fs::set_permissions(&socket, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = tcp.local_addr().unwrap().port();
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    std::fs::write(dir.join("logs/secret.log"), "every hidden card").unwrap();
    let attacks = [
        format!("unix:{}", socket.display()),
        format!("connect:127.0.0.1:{port}"),
        "read:/etc/shadow".to_owned(),
        "list:/root".to_owned(),
        format!("read:{}", dir.join("logs/secret.log").display()),
        format!("write:{}", engine.join("outside.txt").display()),
        "write:/etc/referee-was-here".to_owned(),
        "sysctl:/proc/sys/kernel/core_pattern".to_owned(),
        "sysctl:/proc/sysrq-trigger".to_owned(),
        "env:REFEREE_TEST_SECRET".to_owned(),
        "referee".to_owned(),
        "tty_devices".to_owned(),
        "tiocsti".to_owned(),
    ];
    for attack in &attacks {
        let record = attack_game(&dir, attack, "sandbox=bwrap");
        let (blocked, detail) = blocked(&record);
        assert!(blocked, "{attack} was not blocked: {detail}\n{record}");
    }
    assert!(!engine.join("outside.txt").exists());
    // Outside the sandbox the same engine reaches them, so these games can tell.
    for attack in &attacks[..2] {
        let record = attack_game(&dir, attack, "");
        assert!(
            !blocked(&record).0,
            "{attack} outside the sandbox: {record}"
        );
    }
    let record = attack_game(&dir, "env:REFEREE_TEST_SECRET", "");
    assert!(!blocked(&record).0, "{record}");
}

#[test]
fn private_temporary_files_are_bounded_and_the_scratch_directory_works() {
    let dir_attacks = [
        "fill:/dev/shm:200",
        "fill:/tmp:200",
        "fill:/var/tmp:200",
        "fill:$TMPDIR:200",
    ];
    assert_blocked("fill", &strings(&dir_attacks), "fsize=64M");
    assert_blocked("fill-default", &strings(&["fill:/dev/shm:200"]), "");
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("scratch-works");
    let dir = work.dir().to_path_buf();
    let record = attack_game(&dir, "scratch", "sandbox=bwrap");
    assert!(!blocked(&record).0, "{record}");
    assert_ne!(record["end"]["verdict"], "crash", "{record}");
    // And engines that attack nothing play whole games in it.
    let out = dir.join("bots.jsonl");
    // Random bots, so that a loaded machine cannot make them lose on time.
    let random = format!(
        "{} bot --game dvonn --strategy random",
        common::shared_referee().display()
    );
    referee()
        .args(["match", "--game", "dvonn", "--seed", "3", "--games", "2"])
        .args(["--engine", &random, "--engine", &random])
        .args(["--movetime", "2000", "--each", "sandbox=bwrap", "--out"])
        .arg(&out)
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        // The organiser is told what holds the engines.
        .stderr(
            predicates::str::contains("referee: containment: ")
                .and(predicates::str::contains("in bubblewrap"))
                .and(
                    predicates::str::contains("each engine in a cgroup of its own")
                        .or(predicates::str::contains("no cgroup (")),
                ),
        );
    for record in valid_records(&out) {
        assert_eq!(record["end"]["reason"], "normal", "{record}");
    }
}

/// The simplest sandboxed match a user types: no `--out`, no `--seed`, no limit. Every descriptor
/// the engine is handed must survive its start (the cgroup's was once moved over by the seccomp
/// programs' when no records file took a lower number).
#[test]
fn the_simplest_sandboxed_match_starts_and_plays() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("simplest-sandboxed");
    let sandboxed = format!(
        "sandbox=bwrap cmd='{} bot --game pegs'",
        common::shared_referee().display()
    );
    referee()
        .current_dir(work.dir())
        .args(["match", "--game", "pegs", "--games", "2"])
        .args(["--engine", &sandboxed, "--engine", "random"])
        .timeout(Duration::from_secs(120))
        .assert()
        .success()
        .stdout(predicates::str::contains("2 games, "))
        .stdout(predicates::str::contains("ends: normal 2"));
}

/// For a root referee with bubblewrap: a workspace named `name` holding a folder closed to other
/// users (mode 0700) with a copy of the built binary in it; `None`, said, elsewhere.
fn in_closed_folder(name: &str) -> Option<(Workspace, PathBuf)> {
    if !bwrap_usable() {
        return None;
    }
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: the engines of a referee that is not root run as its own user");
        return None;
    }
    use std::os::unix::fs::PermissionsExt;
    let work = Workspace::new(name);
    let closed = work.file("closed");
    std::fs::create_dir(&closed).unwrap();
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
    let copy = closed.join("referee");
    std::fs::copy(cargo_bin!("referee"), &copy).unwrap();
    Some((work, copy))
}

/// A root referee installed where only root may look (`cargo install` as root puts it in root's
/// home, mode 0700) still runs sandboxed engines, whose users cannot read its program there: they
/// are shown a copy they may read in its place, gone after the run; so an engine that runs the
/// referee by that path (here the built-in bot, as `--engine search` does) runs.
#[test]
fn a_root_referee_in_a_closed_folder_still_runs_sandboxed_engines() {
    let Some((work, installed)) = in_closed_folder("closed-folder") else {
        return;
    };
    let sandboxed = format!(
        "sandbox=bwrap cmd='{} bot --game pegs'",
        installed.display()
    );
    let child = std::process::Command::new(&installed)
        .current_dir(work.dir())
        .args(["match", "--game", "pegs", "--games", "2"])
        .args(["--engine", &sandboxed, "--engine", "random"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let copies = format!("referee-program-{}-", child.id());
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("ends: normal 2"), "{stdout}");
    let left: Vec<String> = (std::fs::read_dir(std::env::temp_dir()).unwrap())
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&copies))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A root referee's sandboxed engine kept in a folder closed to other users cannot be started
/// (its user cannot reach it): the run stops, saying so and what to do.
#[test]
fn a_sandboxed_engine_in_a_closed_folder_is_refused_with_what_to_do() {
    let Some((work, bot)) = in_closed_folder("closed-engine") else {
        return;
    };
    let sandboxed = format!("sandbox=bwrap cmd='{} bot --game pegs'", bot.display());
    referee()
        .current_dir(work.dir())
        .args(["match", "--game", "pegs", "--games", "1"])
        .args(["--engine", &sandboxed, "--engine", "random"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(3)
        .stderr(predicates::str::contains(
            "keep sandboxed engines where other users may read them",
        ));
}

/// Paths with spaces, as users' folders have them: a sandboxed engine kept in one and run by its
/// path, a run whose folder and records file have them.
#[test]
fn a_sandboxed_engine_in_a_folder_with_spaces_plays() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("with spaces");
    let folder = work.file("my bots");
    std::fs::create_dir(&folder).unwrap();
    let bot = folder.join("the bot");
    std::fs::copy(common::shared_referee(), &bot).unwrap();
    let sandboxed = format!("sandbox=bwrap cmd=\"'{}' bot --game pegs\"", bot.display());
    referee()
        .current_dir(work.dir())
        .args(["match", "--game", "pegs", "--games", "2"])
        .args(["--engine", &sandboxed, "--engine", "random"])
        .args(["--out", "our games.jsonl"])
        .timeout(Duration::from_secs(120))
        .assert()
        .success()
        .stdout(predicates::str::contains("ends: normal 2"));
    assert_eq!(valid_records(&work.file("our games.jsonl")).len(), 2);
}

/// Under `mem=`, no place an engine can write holds more than the limits promise: the device
/// directory and the empty directories that hide the run's files are read-only, and memory files
/// and System V shared memory, which no per-process limit counts, are refused. Outside the
/// sandbox the same engine writes its memory files and segments, so these games can tell.
#[test]
fn memory_past_mem_finds_no_place_to_hide() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("memory-places");
    let dir = work.dir().to_path_buf();
    let attacks = [
        "fill:/dev:600".to_owned(),
        format!("fill:{}:600", dir.join("logs").display()),
        "memfd:800".to_owned(),
        "shm:768".to_owned(),
    ];
    for attack in &attacks {
        let record = attack_game(&dir, attack, "sandbox=bwrap mem=256M fsize=64M");
        let (blocked, detail) = blocked(&record);
        assert!(blocked, "{attack} was not blocked: {detail}\n{record}");
        let written: u64 = detail
            .split("blocked: ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{attack}: {detail}"));
        assert_eq!(written, 0, "{attack}: {detail}");
    }
    for attack in &attacks[2..] {
        let record = attack_game(&dir, attack, "user=65534 mem=256M fsize=64M");
        remove_detached_segments_of("nobody");
        assert!(
            !blocked(&record).0,
            "{attack} outside the sandbox: {record}"
        );
    }
}

/// Removes the System V shared memory segments of `owner` that no process holds: the attack
/// outside the sandbox leaves 768 MiB of them, which outlive it until removed (a test run
/// left them for good, and 31 runs filled a 24 GiB machine).
fn remove_detached_segments_of(owner: &str) {
    let Ok(listed) = std::process::Command::new("ipcs").arg("-m").output() else {
        return;
    };
    for line in String::from_utf8_lossy(&listed.stdout).lines() {
        // key shmid owner perms bytes nattch [status]
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() >= 6 && fields[2] == owner && fields[5] == "0" {
            let _ = std::process::Command::new("ipcrm")
                .args(["-m", fields[1]])
                .status();
        }
    }
}

/// An organiser who is not root: the sandbox shows the engine the system and its own files, never
/// the organiser's home (keys, passwords) or the other files of the run's folder (a neighbour
/// shard of the same user). Run as an unprivileged user when the tests are root.
#[test]
fn a_non_root_organisers_home_and_other_files_are_out_of_view() {
    if !bwrap_usable() {
        return;
    }
    use std::os::unix::process::CommandExt;
    let root = nix::unistd::geteuid().is_root();
    // Outside the temporary directory, which the sandbox replaces with a private one anyway; as
    // root, under /home, where an organiser's home is, since the clone's folder may be closed to
    // the organiser's user.
    let homes = match root {
        true => PathBuf::from("/home"),
        false => PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
    };
    let home = homes.join(format!("referee-test-home-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let contest = home.join("contest");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(&contest).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "PRIVATE KEY").unwrap();
    std::fs::write(home.join(".netrc"), "machine x password y").unwrap();
    std::fs::write(contest.join("shard-2.jsonl"), "a neighbour's hidden cards").unwrap();
    let engine = engine_dir(&contest);
    let organiser = 64500;
    if root {
        let chown = std::process::Command::new("chown")
            .args(["-R", &format!("{organiser}:{organiser}")])
            .arg(&home)
            .status()
            .unwrap();
        assert!(chown.success());
    }
    let game = |attack: &str| {
        let (mut command, out) = attack_command(&contest, attack, "sandbox=bwrap", 1);
        command.env("HOME", &home);
        if root {
            command.uid(organiser).gid(organiser);
        }
        assert_cmd::Command::from_std(command)
            .timeout(Duration::from_secs(120))
            .assert()
            .success();
        valid_records(&out).remove(0)
    };
    for target in [
        home.join(".ssh/id_rsa"),
        home.join(".netrc"),
        contest.join("shard-2.jsonl"),
    ] {
        let attack = format!("read:{}", target.display());
        let (blocked, detail) = blocked(&game(&attack));
        assert!(blocked, "{attack} was not blocked: {detail}");
    }
    // Its own files it reads, so these games can tell.
    let own = format!("read:{}", engine.join("relay.py").display());
    assert!(!blocked(&game(&own)).0, "{own} was blocked");
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn a_fork_bomb_is_held_to_its_process_limit() {
    assert_blocked("forkbomb", &strings(&["forkbomb:5000"]), "procs=200");
}

/// Runs the referee of `command` until the attack's helpers (marked `marker`) have started, and
/// returns it.
fn started_with_helpers(mut command: std::process::Command, marker: &str) -> std::process::Child {
    let child = command.stdout(std::process::Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    // The engine and its three helpers, all Python (the referee's command line names them too).
    let pythons = || {
        let found = processes_with(&[marker, "attack.py"]);
        found.iter().filter(|(_, line)| runs_python(line)).count()
    };
    while pythons() < 4 {
        assert!(Instant::now() < deadline, "the helpers never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn helpers_that_leave_the_session_do_not_outlive_the_game() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("outlive");
    let dir = work.dir().to_path_buf();
    // The helpers note their pids in a directory they may write: the sandbox's own /tmp, or the
    // test's (an engine outside the sandbox has no TMPDIR of its own).
    let plain_notes = format!("{}", dir.display());
    for (marker, keys, notes) in [
        ("outlive:sandboxed", "sandbox=bwrap", "$TMPDIR"),
        ("outlive:plain", "", plain_notes.as_str()),
    ] {
        let attack = format!("{marker}-{}", std::process::id());
        let (mut command, out) = attack_command(&dir, &format!("{attack}:{notes}"), keys, 1);
        command.stderr(std::process::Stdio::null());
        let status = started_with_helpers(command, &attack).wait().unwrap();
        assert!(status.success());
        assert_eq!(valid_records(&out).len(), 1);
        assert_no_process_with(&[&attack, "attack.py"]);
    }
}

#[test]
fn sandboxed_helpers_do_not_outlive_a_referee_killed_outright() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("outlive-sigkill");
    let dir = work.dir().to_path_buf();
    let attack = format!("outlive:killed-{}", std::process::id());
    let (mut command, _) =
        attack_command(&dir, &format!("{attack}:$TMPDIR"), "sandbox=bwrap", 1000);
    command.stderr(std::process::Stdio::null());
    let mut child = started_with_helpers(command, &attack);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_process_with(&[&attack, "attack.py"]);
}

/// Outside the sandbox, what holds an engine's helpers after the referee is killed outright is
/// its cgroup, killed by the referee's janitor; without one (the machine's cgroup v2 is missing or
/// not the referee's to use) they survive, as protocol.md says, and the test says so and stops.
#[test]
fn plain_helpers_do_not_outlive_a_referee_killed_outright_where_cgroups_hold_them() {
    let work = Workspace::new("outlive-sigkill-plain");
    let dir = work.dir().to_path_buf();
    let attack = format!("outlive:plain-killed-{}", std::process::id());
    // A limit, so that the run says what contains the engines.
    let notes = format!("{attack}:{}", dir.display());
    let (mut command, _) = attack_command(&dir, &notes, "files=1000", 1000);
    let said = dir.join("stderr");
    command.stderr(std::fs::File::create(&said).unwrap());
    let mut child = started_with_helpers(command, &attack);
    // Each helper notes its pid once it has left the engine's session twice over.
    let deadline = Instant::now() + Duration::from_secs(30);
    let noted = || std::fs::read_to_string(dir.join("pids")).map_or(0, |t| t.lines().count());
    while noted() < 3 {
        assert!(Instant::now() < deadline, "the helpers never left");
        std::thread::sleep(Duration::from_millis(20));
    }
    let containment = std::fs::read_to_string(&said).unwrap();
    if !containment.contains("each engine in a cgroup of its own") {
        child.kill().unwrap();
        child.wait().unwrap();
        // Not left running for the other tests to find.
        for (pid, _) in processes_with(&[&attack, "attack.py"]) {
            send_signal(pid, "KILL");
        }
        eprintln!("not run: this machine gives the referee no cgroup: {containment}");
        return;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_process_with(&[&attack, "attack.py"]);
    // The dead referee's cgroups (the janitor kills, it does not remove) are removed by the next
    // referee that starts a contained engine: this test's, or one of the tests running beside it.
    let cgroup = containment
        .split(" under ")
        .nth(1)
        .and_then(|rest| rest.split(" (").next())
        .expect("the containment line names the cgroup");
    let bot = format!(
        "cmd='{} bot --game pegs'",
        common::shared_referee().display()
    );
    referee()
        .args(["match", "--game", "pegs", "--games", "1"])
        .args(["--engine", &format!("name=a {bot} files=1000")])
        .args(["--engine", &format!("name=b {bot}")])
        .assert()
        .success();
    assert!(!Path::new(cgroup).exists(), "{cgroup} is left");
}

#[test]
fn killing_every_process_in_reach_harms_nobody_outside_the_sandbox() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("kill-all");
    let dir = work.dir().to_path_buf();
    let record = attack_game(&dir, "kill_all", "sandbox=bwrap");
    // The attacker's own helper (its relay to a random bot) dies with the rest of its sandbox;
    // the opponent and the referee play on and the game is adjudicated.
    let end = &record["end"];
    assert_eq!(
        record["seats"][end["seat"].as_u64().unwrap() as usize]["name"],
        "attacker",
        "{record}"
    );
}

/// Runs `command` in a new pseudo-terminal that is its controlling terminal (see
/// tests/engines/in_terminal.py); returns what it left in the terminal's input queue.
fn left_in_terminal(command: &std::process::Command) -> String {
    let mut run = std::process::Command::new("python3");
    run.arg("tests/engines/in_terminal.py")
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            run.env(key, value);
        }
    }
    let output = run.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["pending"].as_str().unwrap().to_owned()
}

#[test]
fn no_engine_pushes_input_into_the_organisers_terminal() {
    // The terminal takes pushed input from a process whose terminal it is: the test can tell.
    let pusher = "import fcntl, termios\n\
                  for c in b'echo hi\\n': fcntl.ioctl(0, termios.TIOCSTI, bytes([c]))";
    let mut control = std::process::Command::new("python3");
    control.args(["-c", pusher]);
    assert_eq!(left_in_terminal(&control), "echo hi\n");
    let work = Workspace::new("tiocsti");
    let dir = work.dir().to_path_buf();
    let mut setups = vec!["user=65534"];
    if bwrap_usable() {
        setups.push("sandbox=bwrap");
    }
    for keys in setups {
        let (command, out) = attack_command(&dir, "tiocsti", keys, 1);
        assert_eq!(left_in_terminal(&command), "", "{keys}");
        let record = valid_records(&out).remove(0);
        let (blocked, detail) = blocked(&record);
        assert!(blocked, "{keys}: {detail}");
    }
    // Outside the sandbox, an engine stays in the referee's session (see "The CPU while others
    // think" in protocol.md) but has no controlling terminal there.
    for keys in ["", "user=65534"] {
        let (command, out) = attack_command(&dir, "terminal", keys, 1);
        assert_eq!(left_in_terminal(&command), "", "{keys}");
        let record = valid_records(&out).remove(0);
        let (blocked, detail) = blocked(&record);
        assert!(blocked, "{keys}: {detail}");
        assert!(detail.contains("session shared"), "{keys}: {detail}");
    }
}

/// A stop that reaches a sandboxed engine a moment before the referee (as a job scheduler stops
/// every process of a job) records no crash: bubblewrap's exit code 143 is read as SIGTERM.
#[test]
fn a_stop_that_reaches_a_sandboxed_engine_first_is_no_crash() {
    if !bwrap_usable() {
        return;
    }
    let work = Workspace::new("stop-sandboxed");
    let dir = work.dir().to_path_buf();
    std::fs::copy("tests/engines/slow.py", engine_dir(&dir).join("slow.py")).unwrap();
    for run in 0..3 {
        let marker = format!("stop-{}-{run}", std::process::id());
        let engine = format!(
            "name=slow cmd='python3 slow.py pegs 1 3000 {marker}' dir={} sandbox=bwrap \
             env=REFEREE",
            dir.join("engine").display()
        );
        let out = dir.join(format!("games-{run}.jsonl"));
        let mut child = std::process::Command::new(cargo_bin!("referee"))
            .env("REFEREE", common::shared_referee())
            .args([
                "match",
                "--game",
                "pegs",
                "--games",
                "4",
                "--movetime",
                "10000",
            ])
            .args(["--engine", &engine, "--engine", &bot(), "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        // The engine thinks for 3 s a move: stop it while it thinks.
        let engines = loop {
            // The engines, not their bubblewrap, whose command line names them too.
            let found: Vec<u32> = (processes_with(&[&marker, "slow.py"]).into_iter())
                .filter(|(_, command)| runs_python(command))
                .map(|(pid, _)| pid)
                .collect();
            if !found.is_empty() {
                break found;
            }
            assert!(Instant::now() < deadline, "the engine never started");
            std::thread::sleep(Duration::from_millis(20));
        };
        std::thread::sleep(Duration::from_millis(300 + 200 * run));
        for pid in engines {
            send_signal(pid, "TERM");
        }
        std::thread::sleep(Duration::from_millis(100));
        assert!(send_signal(child.id(), "TERM"));
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + 15));
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        assert!(!text.contains("crash"), "a stop recorded a crash: {text}");
        assert_no_process_with(&[&marker, "slow.py"]);
    }
}
