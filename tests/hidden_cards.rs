//! DOUBLE's hidden hands stay hidden: a cheating engine (tests/engines/cheater.py) tries every
//! channel it knows (the referee's command line, the run's files, brute force of its seed through
//! the published seed algorithms, notes left across rotations of a deal) and names the other
//! seats' hands. Each channel works where the run leaves it open, so the tests can tell; in a
//! sandboxed run dealt from a secret it names nothing in 100 games.

// The engines these tests run, and what they look at (/proc, bubblewrap), are Linux's.
#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin;
use common::{Workspace, bwrap_usable, run_to_records, temp_dir};
use serde_json::Value;

/// The run directory: the cheater's copy (in `engine/`, which it works in), a world-writable
/// `notes/` it may share across processes.
fn run_dir(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir(name);
    let engine = dir.join("engine");
    let notes = dir.join("notes");
    for sub in [&engine, &notes] {
        std::fs::create_dir_all(sub).unwrap();
    }
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o1777)).unwrap();
    for file in ["cheater.py", "relay.py"] {
        std::fs::copy(Path::new("tests/engines").join(file), engine.join(file)).unwrap();
    }
    dir
}

/// Plays `games` three-seat DOUBLE games of the cheater (with `keys`) against two random bots in
/// `dir`, with `flags` (`--concurrency` among them); returns, per record, how many of the other seats' dealt cards the cheater
/// named rightly and wrongly, and the number of cards dealt to them.
fn cheat(dir: &Path, games: usize, keys: &str, flags: &[&str]) -> Vec<(usize, usize, usize)> {
    let referee = common::shared_referee();
    let bot = format!("{} bot --game double --strategy random", referee.display());
    let cheater = format!(
        "name=cheater cmd='python3 cheater.py {}' dir={} env=REFEREE {keys}",
        dir.display(),
        dir.join("engine").display()
    );
    let out = dir.join("games.jsonl");
    let logs = dir.join("logs");
    let records = run_to_records(
        assert_cmd::Command::new(cargo_bin!("referee"))
            .env("REFEREE", referee)
            .env("CHEATER_NOTES", dir.join("notes"))
            .args(["match", "--game", "double", "--seats", "3"])
            .args(["--games", &games.to_string(), "--movetime", "500"])
            .args(["--engine", &cheater])
            .args(["--engine", &bot, "--engine", &bot, "--log-dir"])
            .arg(&logs)
            .arg("--progress")
            .arg(dir.join("progress.json"))
            .args(flags),
        &out,
        600,
    );
    assert_eq!(records.len(), games);
    records
        .iter()
        .map(|record| {
            let number: usize = record["tags"]["game"].as_str().unwrap().parse().unwrap();
            let log = std::fs::read_to_string(logs.join(format!("game-{number:05}.log"))).unwrap();
            let guess = log
                .lines()
                .find_map(|l| l.split_once("cheater ! guess: ").map(|(_, g)| g.to_owned()))
                .unwrap_or_else(|| panic!("the cheater made no guess: {log}"));
            score(record, &guess)
        })
        .collect()
}

/// How many of the other seats' dealt cards `guess` (`SEAT=CARD,... SEAT=...` or `none`) names
/// rightly and wrongly, and how many there were.
fn score(record: &Value, guess: &str) -> (usize, usize, usize) {
    let seat = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == "cheater")
        .unwrap();
    let mut dealt: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for mv in record["moves"].as_array().unwrap() {
        let words: Vec<&str> = mv["move"].as_str().unwrap().split_whitespace().collect();
        match words.as_slice() {
            ["deal", s, card] => {
                let card = card.split(':').next().unwrap().to_owned();
                dealt.entry(s.parse().unwrap()).or_default().push(card);
            }
            _ => break,
        }
    }
    dealt.remove(&seat);
    let mut named: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for part in guess.split_whitespace().filter(|&p| p != "none") {
        let (s, cards) = part.split_once('=').unwrap();
        named.insert(
            s.parse().unwrap(),
            cards.split(',').map(str::to_owned).collect(),
        );
    }
    let (mut right, mut wrong) = (0, 0);
    for (s, cards) in &named {
        for card in cards {
            match dealt.get(s).is_some_and(|d| d.contains(card)) {
                true => right += 1,
                false => wrong += 1,
            }
        }
    }
    (right, wrong, dealt.values().map(Vec::len).sum())
}

/// Every game's hidden cards named exactly.
fn assert_all_named(scores: &[(usize, usize, usize)], how: &str) {
    for &(right, wrong, dealt) in scores {
        assert_eq!((right, wrong), (dealt, 0), "{how}: {scores:?}");
    }
}

#[test]
fn a_public_seed_gives_every_hand_away_which_is_why_the_referee_warns() {
    let dir = run_dir("cheat-public");
    let scores = cheat(&dir, 4, "", &["--seed", "42", "--concurrency", "2"]);
    assert_all_named(&scores, "brute force of --seed 42");
}

#[test]
fn a_secret_file_the_engine_can_read_gives_every_hand_away() {
    // Root outside the sandbox reads the 0600 secret beside the records.
    if !nix_is_root() {
        return;
    }
    let dir = run_dir("cheat-secret-read");
    assert_all_named(
        &cheat(&dir, 4, "", &["--concurrency", "2"]),
        "the secret file read",
    );
}

#[test]
fn notes_shared_across_rotations_give_the_deal_away_outside_the_sandbox() {
    if !nix_is_root() {
        return;
    }
    let dir = run_dir("cheat-notes");
    // As its own user the cheater reads no run file, but with --repeat the same deal comes back
    // in each rotation, and its notes in a shared directory say what the other seats held. One
    // game at a time, so that a rotation never starts before the one before it left its notes.
    let scores = cheat(&dir, 6, "user=65534", &["--repeat", "--concurrency", "1"]);
    let (right, wrong): (usize, usize) = scores.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    // Two deals may share a start card and mislead it now and then; the rest is named rightly.
    assert!(right > 0 && right > 2 * wrong, "{scores:?}");
}

#[test]
fn a_sandboxed_cheater_in_a_secret_deal_names_no_hidden_card_better_than_chance_in_100_games() {
    if !bwrap_usable() {
        return;
    }
    let dir = run_dir("cheat-sandboxed");
    let scores = cheat(
        &dir,
        100,
        "sandbox=bwrap",
        &["--repeat", "--concurrency", "2"],
    );
    let (right, wrong): (usize, usize) = scores.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    // Its private notes still match deals that merely share a start card, so it may name a few
    // cards; a card named blindly among the 65 it has not seen (72, less its 6 and the start
    // card) is in the named seat's 6 with probability 6/65. Right answers past chance plus four
    // standard deviations would mean a leak (one that works names every card, as above).
    let named = (right + wrong) as f64;
    let p = 6.0 / 65.0;
    let bound = named * p + 4.0 * (named * p * (1.0 - p)).sqrt() + 1.0;
    assert!(
        (right as f64) <= bound,
        "{right} of {named} named cards right, chance allows {bound:.1}: {scores:?}"
    );
}

fn nix_is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
}

/// `referee match` of DOUBLE with the built-in bots and `flags`; the records of `out`, by game.
fn bots_run(out: &Path, flags: &[&str]) -> BTreeMap<String, u64> {
    run_to_records(
        assert_cmd::Command::new(cargo_bin!("referee"))
            .args([
                "match",
                "--game",
                "double",
                "--seats",
                "3",
                "--movetime",
                "20",
            ])
            .args(flags),
        out,
        120,
    )
    .iter()
    .map(|r| {
        let game = r["tags"]["game"].as_str().unwrap().to_owned();
        (game, r["seed"].as_u64().unwrap())
    })
    .collect()
}

#[test]
fn a_secret_deal_is_the_same_when_resumed_or_sharded_and_the_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let work = Workspace::new("secret-runs");
    let dir = work.dir().to_path_buf();
    let whole = dir.join("whole.jsonl");
    let progress = dir.join("progress.json");
    let seeds = bots_run(
        &whole,
        &["--games", "4", "--progress", progress.to_str().unwrap()],
    );
    let secret = dir.join("whole.jsonl.secret");
    let key = std::fs::read_to_string(&secret).unwrap();
    for file in [&whole, &secret, &progress] {
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", file.display());
    }
    // Records name the secret by its public id alone.
    let records = std::fs::read_to_string(&whole).unwrap();
    assert!(records.contains("seed=secret-"), "{records}");
    assert!(!records.contains(key.trim()));
    let progress = std::fs::read_to_string(&progress).unwrap();
    assert!(progress.contains("seed=secret-") && !progress.contains(key.trim()));

    // Shards given the same secret deal the same games.
    let mut sharded = BTreeMap::new();
    for k in ["1/2", "2/2"] {
        let out = dir.join(format!("shard-{}.jsonl", &k[..1]));
        let flags = [
            "--games",
            "4",
            "--shard",
            k,
            "--secret",
            secret.to_str().unwrap(),
        ];
        sharded.extend(bots_run(&out, &flags));
    }
    assert_eq!(sharded, seeds);

    // A run resumed from its records and secret deals the games it had not played the same.
    let resumed = dir.join("resumed.jsonl");
    let first_two: String = records.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&resumed, first_two).unwrap();
    std::fs::copy(&secret, dir.join("resumed.jsonl.secret")).unwrap();
    assert_eq!(bots_run(&resumed, &["--games", "4", "--resume"]), seeds);

    // A different secret is another run: --resume refuses to mix them.
    std::fs::write(
        dir.join("resumed.jsonl.secret"),
        format!("{}\n", "ab".repeat(32)),
    )
    .unwrap();
    assert_cmd::Command::new(cargo_bin!("referee"))
        .args([
            "match", "--game", "double", "--seats", "3", "--games", "5", "--resume",
        ])
        .arg("--out")
        .arg(&resumed)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("a record of another run"));
}
