//! The shipped deployment recipes, run for real: deploy/slurm on a single-node Slurm cluster
//! started here (tests/slurm/cluster.sh), requeue included; deploy/kubernetes parsed, and each
//! pod's command run here for every completion index, as Kubernetes would run it.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{Workspace, stats_json as standings};
use serde_json::Value;

const SCHEDULE: [&str; 9] = [
    "--game",
    "dvonn",
    "--rounds",
    "2",
    "--repeat",
    "--seed",
    "8",
    "--movetime",
    "5000",
];

/// `--engine` values for three seeded engines: the random bot itself, or (`slow_ms`) the same
/// bot behind tests/engines/slow.py, which plays the same moves more slowly.
fn engines(names: [&str; 3], slow_ms: Option<u32>) -> Vec<String> {
    let referee = common::shared_referee().display().to_string();
    let engines_dir = common::shared_referee().parent().unwrap().join("engines");
    let mut args = Vec::new();
    for (seed, name) in names.iter().enumerate() {
        let cmd = match slow_ms {
            None => format!("{referee} bot --game dvonn --seed {seed}"),
            Some(ms) => format!(
                "python3 {} dvonn {seed} {ms}",
                engines_dir.join("slow.py").display()
            ),
        };
        args.push("--engine".to_owned());
        args.push(format!("name={name} cmd='{cmd}'"));
    }
    args
}

/// The tournament's options, as the recipes take them: 3 engines, 12 games.
fn tournament(names: [&str; 3], slow_ms: Option<u32>) -> Vec<String> {
    let mut args: Vec<String> = SCHEDULE
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    args.extend(engines(names, slow_ms));
    args
}

/// The same tournament on one machine, unsharded: its records.
fn unsharded(dir: &Path, names: [&str; 3]) -> PathBuf {
    let out = dir.join("unsharded.jsonl");
    common::referee()
        .arg("tournament")
        .args(tournament(names, None))
        .arg("--out")
        .arg(&out)
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    out
}

/// The files `dir/shard-K.EXT` for K in 1..=n.
fn shard_files(dir: &Path, n: usize, ext: &str) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| dir.join(format!("shard-{k}.{ext}")))
        .collect()
}

/// Every game number of the schedule is recorded exactly once across `files`.
fn assert_each_game_once(files: &[PathBuf], games: usize) {
    let mut numbers: Vec<usize> = files
        .iter()
        .flat_map(|f| common::valid_records(f))
        .map(|r| r["tags"]["game"].as_str().unwrap().parse().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=games).collect::<Vec<_>>());
}

/// The merged standings equal the unsharded run's, and the progress files say every shard
/// finished every game.
fn assert_merged(results: &Path, shards: usize, unsharded: &Path) {
    let records = shard_files(results, shards, "jsonl");
    assert_each_game_once(&records, 12);
    assert_eq!(standings(&records), standings(&[unsharded.to_owned()]));
    // The merge step's own output: the same standings, and the whole run done.
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("standings.json")).unwrap())
            .unwrap();
    let mut without_progress = merged.clone();
    without_progress.as_object_mut().unwrap().remove("progress");
    assert_eq!(without_progress, standings(&[unsharded.to_owned()]));
    let progress = &merged["progress"];
    assert_eq!(progress["games_done"], 12, "{progress}");
    assert_eq!(progress["schedule_games"], 12);
    assert_eq!(progress["shards"], shards);
    assert_eq!(
        progress["states"],
        serde_json::json!({ "finished": shards })
    );
    let text = std::fs::read_to_string(results.join("standings.txt")).unwrap();
    assert!(
        text.contains(&format!(
            "Progress: 12 of 12 games (100.0%); {shards} shards: {shards} finished"
        )),
        "{text}"
    );
}

/// A single-node Slurm cluster of tests/slurm/cluster.sh, stopped (its daemons, by pid) when
/// dropped, even when the test fails.
struct Cluster {
    dir: PathBuf,
    stopped: bool,
}

impl Cluster {
    fn script() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/cluster.sh")
    }

    /// Starts one in `dir`, or says why it cannot here (`None`); with REFEREE_REQUIRE_SLURM set
    /// (by `.ci/run`, which installs slurm-wlm and munge), that is a failure.
    fn start(dir: &Path) -> Option<Cluster> {
        let required = std::env::var_os("REFEREE_REQUIRE_SLURM").is_some();
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout == b"0\n");
        let installed = ["munged", "slurmctld", "slurmd", "sbatch"]
            .iter()
            .all(|tool| {
                Command::new("sh")
                    .args([
                        "-c",
                        &format!("PATH=$PATH:/usr/sbin:/sbin command -v {tool}"),
                    ])
                    .output()
                    .is_ok_and(|o| o.status.success())
            });
        if !(root && installed) {
            assert!(
                !required,
                "REFEREE_REQUIRE_SLURM is set, but Slurm cannot run here (root: {root}, \
                 slurm-wlm and munge installed: {installed})"
            );
            eprintln!("skipped: a Slurm cluster needs root and Debian's slurm-wlm and munge");
            return None;
        }
        let status = Command::new("bash")
            .arg(Cluster::script())
            .arg("start")
            .arg(dir)
            .status()
            .unwrap();
        let cluster = Cluster {
            dir: dir.to_owned(),
            stopped: false,
        };
        assert!(status.success(), "the cluster did not start");
        Some(cluster)
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// A Slurm client command against this cluster.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", self.conf());
        command
    }

    /// `scontrol show job ID` as one line of `Key=Value` words.
    fn job(&self, id: &str) -> String {
        let output = self
            .command("scontrol")
            .args(["show", "job", "-o", id])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The value of `key` in `scontrol show job ID` (of the first line, for an array).
    fn job_field(&self, id: &str, key: &str) -> String {
        let job = self.job(id);
        job.split_whitespace()
            .find_map(|word| word.strip_prefix(&format!("{key}=")))
            .unwrap_or("")
            .to_owned()
    }

    /// Waits (at most `limit`) for job `id` to complete; shows the job, its logs and the
    /// cluster's logs when it fails or does not end.
    fn wait_done(&self, id: &str, logs: &Path, limit: Duration) {
        let start = Instant::now();
        loop {
            let state = self.job_field(id, "JobState");
            if state == "COMPLETED" {
                return;
            }
            let ended = matches!(
                state.as_str(),
                "FAILED" | "CANCELLED" | "TIMEOUT" | "NODE_FAIL" | "OUT_OF_MEMORY"
            ) || self.job_field(id, "Reason") == "DependencyNeverSatisfied";
            if ended || start.elapsed() > limit {
                self.show_logs(logs);
                panic!(
                    "job {id} is {state} after {:?}:\n{}",
                    start.elapsed(),
                    self.job(id)
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn show_logs(&self, jobs: &Path) {
        let _ = self
            .command("squeue")
            .status()
            .and_then(|_| self.command("scontrol").args(["show", "jobs"]).status());
        for entry in std::fs::read_dir(jobs).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "out") {
                eprintln!("==== {}", entry.path().display());
                eprintln!(
                    "{}",
                    std::fs::read_to_string(entry.path()).unwrap_or_default()
                );
            }
        }
        let _ = Command::new("bash")
            .arg(Cluster::script())
            .arg("logs")
            .arg(&self.dir)
            .status();
    }

    /// Runs deploy/slurm/submit.sh from `cwd` with `env`; returns the tournament's and the
    /// merge's job ids.
    fn submit(&self, cwd: &Path, env: &[(&str, &Path)], args: &[String]) -> (String, String) {
        let submit = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/submit.sh");
        let mut command = self.command("bash");
        command.current_dir(cwd).arg(submit).args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            output.status.success(),
            "submit.sh failed: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // "tournament: job 3 (4 shards); merge: job 4"
        let ids: Vec<&str> = stdout
            .split_whitespace()
            .filter(|w| w.trim_end_matches([';', ',']).parse::<u32>().is_ok())
            .map(|w| w.trim_end_matches([';', ',']))
            .collect();
        assert_eq!(ids.len(), 2, "{stdout}");
        (ids[0].to_owned(), ids[1].to_owned())
    }
}

impl Cluster {
    /// Stops the three daemons by the pids they wrote; returns those pids.
    fn stop(&mut self) -> Vec<String> {
        self.stopped = true;
        let pids = ["munged", "slurmctld", "slurmd"]
            .iter()
            .filter_map(|d| std::fs::read_to_string(self.dir.join(format!("{d}.pid"))).ok())
            .map(|pid| pid.trim().to_owned())
            .collect();
        let _ = Command::new("bash")
            .arg(Cluster::script())
            .arg("stop")
            .arg(&self.dir)
            .status();
        pids
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if !self.stopped {
            self.stop();
        }
    }
}

/// Each shard's progress file, as JSON (`Null` before the shard started).
fn progress_of(path: &Path) -> Value {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null)
}

#[test]
fn the_slurm_array_gives_the_unsharded_standings_and_survives_a_requeue() {
    let work = Workspace::new("slurm");
    let dir = work.dir().to_path_buf();
    let Some(mut cluster) = Cluster::start(&dir.join("cluster")) else {
        return;
    };
    let names = ["alpha", "beta", "gamma"];
    let unsharded = unsharded(&dir, names);
    let referee: &Path = &common::shared_referee();
    let shards = Path::new("4");

    // The documented way: submit.sh, 4 shards, the merge as a dependent job.
    let submit = |results: &Path, slow_ms| {
        let env = [
            ("REFEREE", referee),
            ("RESULTS", results),
            ("SHARDS", shards),
        ];
        cluster.submit(&dir, &env, &tournament(names, slow_ms))
    };
    let results = dir.join("results");
    let (_, merge) = submit(&results, None);
    cluster.wait_done(&merge, &dir, Duration::from_secs(240));
    assert_merged(&results, 4, &unsharded);

    // Again with engines slow enough to requeue shard 2 after some of its games were recorded
    // and before all were: the requeued task resumes its shard.
    let results = dir.join("requeued");
    let (array, merge) = submit(&results, Some(25));
    let task = format!("{array}_2");
    let start = Instant::now();
    let partly = loop {
        let progress = progress_of(&results.join("shard-2.progress.json"));
        let done = progress["games_done"].as_u64().unwrap_or(0);
        if done >= 1 && done < progress["games_total"].as_u64().unwrap() {
            break done;
        }
        if start.elapsed() > Duration::from_secs(120) || progress["state"] == "finished" {
            cluster.show_logs(&dir);
            panic!("shard 2 was not caught partly played: {progress}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = cluster
        .command("scontrol")
        .args(["requeue", &task])
        .status()
        .unwrap();
    assert!(status.success(), "scontrol requeue {task}");
    // A requeued job waits before it may start again; start it now.
    let start = Instant::now();
    while cluster.job_field(&task, "JobState") != "PENDING" {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}",
            cluster.job(&task)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = cluster
        .command("scontrol")
        .args(["update", &format!("jobid={task}"), "StartTime=now"])
        .status()
        .unwrap();
    assert!(status.success());
    cluster.wait_done(&merge, &dir, Duration::from_secs(240));
    assert_eq!(cluster.job_field(&task, "Restarts"), "1");
    let log = std::fs::read_to_string(dir.join(format!("referee-{array}_2.out"))).unwrap();
    assert!(
        log.contains("attempt 1") && log.contains("attempt 2"),
        "shard 2 ran twice: {log}"
    );
    assert!(log.contains("interrupted"), "{log}");
    assert!(partly >= 1);
    assert_merged(&results, 4, &unsharded);
    // Every daemon the test started is gone.
    let pids = cluster.stop();
    assert_eq!(pids.len(), 3);
    for pid in pids {
        assert!(!common::exists(&pid), "daemon {pid} is still running");
    }
}

/// The commands of deploy/kubernetes, read from the manifests: the tournament Job's pod command
/// and the merge Job's, with the Job's completions.
struct Manifests {
    completions: usize,
    pod: String,
    mount: String,
    merge: String,
}

fn manifests() -> Manifests {
    use yaml_rust2::{Yaml, YamlLoader};
    let read = |name: &str| -> Yaml {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy/kubernetes")
            .join(name);
        let mut docs = YamlLoader::load_from_str(&std::fs::read_to_string(path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(docs.len(), 1, "{name}: one document");
        docs.remove(0)
    };
    let container_command = |job: &Yaml| -> String {
        let container = &job["spec"]["template"]["spec"]["containers"][0];
        let command: Vec<&str> = container["command"]
            .as_vec()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert_eq!(command[..2], ["sh", "-c"]);
        assert_eq!(command.len(), 3);
        command[2].to_owned()
    };
    let job = read("tournament-job.yaml");
    let merge = read("merge-job.yaml");
    for doc in [&job, &merge] {
        assert_eq!(doc["apiVersion"].as_str(), Some("batch/v1"));
        assert_eq!(doc["kind"].as_str(), Some("Job"));
        let claim = &doc["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"];
        assert_eq!(claim["claimName"].as_str(), Some("referee-results"));
    }
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    assert_eq!(
        spec["template"]["spec"]["restartPolicy"].as_str(),
        Some("OnFailure")
    );
    let container = &spec["template"]["spec"]["containers"][0];
    Manifests {
        completions: spec["completions"].as_i64().unwrap() as usize,
        pod: container_command(&job),
        mount: container["volumeMounts"][0]["mountPath"]
            .as_str()
            .unwrap()
            .to_owned(),
        merge: container_command(&merge),
    }
}

/// The Indexed Job's pods, run here one after another as `sh -c` with `JOB_COMPLETION_INDEX`
/// set, with the image's working directory and the volume replaced by temporary ones and the engines
/// `./alpha`, `./beta` and `./gamma` the seeded random bot: their merge (the merge Job's
/// command) equals an unsharded run, and a pod run again (a restart) changes nothing.
#[test]
fn the_kubernetes_job_commands_give_the_unsharded_standings() {
    let work = Workspace::new("kubernetes");
    let dir = work.dir().to_path_buf();
    let m = manifests();
    assert_eq!(m.completions, 16);
    let image = dir.join("image");
    let volume = dir.join("volume");
    std::fs::create_dir_all(&image).unwrap();
    std::fs::create_dir_all(&volume).unwrap();
    let referee: &Path = &common::shared_referee();
    for (seed, name) in ["alpha", "beta", "gamma"].iter().enumerate() {
        let path = image.join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\nexec '{}' bot --game dvonn --seed {seed}\n",
                referee.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let local = |script: &str| script.replace(&m.mount, &volume.display().to_string());
    let path = format!(
        "{}:{}",
        referee.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let pod = |index: usize| -> Output {
        let output = Command::new("sh")
            .args(["-c", &local(&m.pod)])
            .current_dir(&image)
            .env("PATH", &path)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "pod {index}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    for index in 0..m.completions {
        pod(index);
    }
    // A restarted pod resumes a finished shard: nothing is played again.
    pod(3);
    // The same schedule unsharded, with the recipe's own options (the shard's removed).
    let unsharded = dir.join("unsharded.jsonl");
    let words = shlex::split(&m.pod.replace("K=$((JOB_COMPLETION_INDEX + 1)) &&", "")).unwrap();
    let at = words.iter().position(|w| w == "tournament").unwrap();
    let mut args: Vec<String> = Vec::new();
    let mut rest = words[at + 1..].iter();
    while let Some(word) = rest.next() {
        match word.as_str() {
            "--shard" | "--out" | "--peers" | "--progress" => {
                rest.next();
            }
            "--resume" => {}
            _ => args.push(word.clone()),
        }
    }
    common::referee()
        .current_dir(&image)
        .arg("tournament")
        .args(&args)
        .arg("--out")
        .arg(&unsharded)
        .timeout(Duration::from_secs(600))
        .assert()
        .success();
    let shards = shard_files(&volume, m.completions, "jsonl");
    let games = common::valid_records(&unsharded).len();
    assert_each_game_once(&shards, games);
    assert_eq!(standings(&shards), standings(&[unsharded]));
    let merge = Command::new("sh")
        .args(["-c", &local(&m.merge)])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(merge.status.success(), "{merge:?}");
    let text = String::from_utf8_lossy(&merge.stdout);
    assert!(
        text.contains(&format!(
            "Progress: {games} of {games} games (100.0%); 16 shards: 16 finished"
        )),
        "{text}"
    );
}
