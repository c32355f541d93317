//! The sandbox an engine may run in (`sandbox=bwrap`): bubblewrap's command line, and the scratch
//! directories, one per sandboxed process, that are all it may write to.

use std::ffi::OsString;
use std::io;
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::limits::Limits;
use crate::engine::users::EngineUsers;

/// The program that confines engines.
pub const BWRAP: &str = "bwrap";

/// What every sandboxed engine of a run is kept from, and where its scratch directories go.
#[derive(Debug)]
pub struct Sandbox {
    /// Paths no sandboxed engine may see (the run's files, the transcripts' directory, the
    /// scratch root), absolute; each engine is also kept from the other engines' directories.
    hidden: Vec<PathBuf>,
    /// Every engine's own directory (`dir=`), absolute, by spec.
    dirs: Vec<Option<PathBuf>>,
    /// Where scratch directories are kept (`--scratch-dir`); without it each engine's scratch is
    /// its private `/tmp`, gone when it ends.
    kept: Option<PathBuf>,
    made: AtomicUsize,
    /// The users of the engines when the referee is root, one per spec.
    users: Option<EngineUsers>,
}

impl Sandbox {
    /// The sandbox of a run: `hidden` are the paths of the run no engine may see; `dirs` are the
    /// engines' own directories, by spec; scratch directories are kept under `scratch`, if given.
    pub fn new(
        hidden: &[PathBuf],
        dirs: &[Option<PathBuf>],
        scratch: Option<&Path>,
    ) -> io::Result<Sandbox> {
        let kept = match scratch {
            Some(path) => {
                std::fs::create_dir_all(path)?;
                Some(std::path::absolute(path)?)
            }
            None => None,
        };
        let mut all_hidden = Vec::new();
        for path in hidden {
            let path = std::path::absolute(path)?;
            // The directory too, where other shards' records or a file written beside the run's
            // may lie (it stays in view where it holds what the engine needs: see `bwrap_args`).
            for path in path.parent().map(Path::to_owned).into_iter().chain([path]) {
                if !all_hidden.contains(&path) {
                    all_hidden.push(path);
                }
            }
        }
        all_hidden.extend(kept.iter().cloned());
        let dirs = dirs
            .iter()
            .map(|d| d.as_deref().map(std::path::absolute).transpose())
            .collect::<io::Result<_>>()?;
        let users = match nix::unistd::geteuid().is_root() {
            true => Some(EngineUsers::claim()?),
            false => None,
        };
        Ok(Sandbox {
            hidden: all_hidden,
            dirs,
            kept,
            made: AtomicUsize::new(0),
            users,
        })
    }

    /// The scratch directory of one process of engine `name`: its private [`TMP`], or, when they
    /// are kept, a new, empty directory owned by `owner` (a uid and gid), readable by it alone.
    pub fn scratch(&self, name: &str, owner: Option<(u32, u32)>) -> io::Result<PathBuf> {
        use std::os::unix::fs::DirBuilderExt;
        let Some(root) = &self.kept else {
            return Ok(PathBuf::from(TMP));
        };
        let n = self.made.fetch_add(1, Ordering::Relaxed) + 1;
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = root.join(format!("{safe}-{n}"));
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(&path, Some(uid), Some(gid))?;
        }
        Ok(path)
    }

    /// The bubblewrap arguments that run engine `spec` (working in `cwd`, under `limits`, with
    /// its scratch directory `scratch` and the variables `pass_env` from the referee's
    /// environment); the two seccomp programs of [`crate::engine::seccomp`] are read from
    /// descriptors `seccomp`. The engine's own command follows them.
    pub fn bwrap_args(
        &self,
        engine: &SandboxedEngine<'_>,
        seccomp: [RawFd; 2],
    ) -> io::Result<Vec<OsString>> {
        let cwd = std::path::absolute(engine.cwd)?;
        let size = engine.limits.file_size.unwrap_or(DEFAULT_TMPFS).to_string();
        let mut args: Vec<OsString> = Vec::new();
        let mut push = |words: &[&str]| args.extend(words.iter().map(OsString::from));
        push(&[
            "--new-session",
            "--die-with-parent",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--cap-drop",
            "ALL",
            "--clearenv",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
        ]);
        for dir in PRIVATE_DIRS {
            push(&["--size", &size, "--tmpfs", dir]);
        }
        push(&["--size", RUN_SIZE, "--tmpfs", RUN]);
        show_private(engine, &cwd, &mut args);
        let emptied = self.hide(engine, &cwd, &mut args);
        let scratch = engine.scratch;
        if scratch != Path::new(TMP) {
            args.extend(["--bind".into(), scratch.into(), scratch.into()]);
        }
        // Read-only once everything is mounted in them: the file systems bubblewrap makes to put
        // the device nodes in and to hide directories would otherwise take whatever the engine
        // writes there, in memory no limit counts. Device nodes stay writable on a read-only
        // file system (`/dev/null`), and the mounts in them (`/dev/shm`, the scratch) are their
        // own.
        for path in [Path::new("/dev")]
            .into_iter()
            .chain(emptied.iter().map(PathBuf::as_path))
        {
            args.extend(["--remount-ro".into(), path.into()]);
        }
        args.extend(["--chdir".into(), cwd.into()]);
        for variable in ["TMPDIR", "HOME", "REFEREE_SCRATCH"] {
            args.extend(["--setenv".into(), variable.into(), scratch.into()]);
        }
        let passed = PASSED_ENV
            .iter()
            .copied()
            .chain(engine.pass_env.iter().map(String::as_str));
        for name in passed {
            if let Some(value) = std::env::var_os(name) {
                args.extend(["--setenv".into(), name.into(), value]);
            }
        }
        for fd in seccomp {
            args.extend(["--add-seccomp-fd".into(), fd.to_string().into()]);
        }
        args.push("--".into());
        Ok(args)
    }

    /// Hides from `engine` the referee's run files and the other engines' directories, except
    /// where they hold what the engine needs; returns the directories emptied, to be made
    /// read-only once all is mounted.
    fn hide(
        &self,
        engine: &SandboxedEngine<'_>,
        cwd: &Path,
        args: &mut Vec<OsString>,
    ) -> Vec<PathBuf> {
        let mut emptied = Vec::new();
        let others = self
            .dirs
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != engine.spec)
            .filter_map(|(_, dir)| dir.as_ref());
        for path in self.hidden.iter().chain(others) {
            // A directory that holds the engine's own, or a file its command names, is left in
            // view, or the engine could not run.
            let mut needed = engine.files.iter().map(PathBuf::as_path).chain([cwd]);
            if needed.any(|n| n.starts_with(path)) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            if meta.is_dir() {
                args.extend([
                    "--size".into(),
                    HIDING_SIZE.into(),
                    "--tmpfs".into(),
                    path.into(),
                ]);
                emptied.push(path.clone());
            } else {
                args.extend(["--ro-bind".into(), "/dev/null".into(), path.into()]);
            }
        }
        emptied
    }
}

/// Puts back in view, read-only, an engine kept under a private directory (say in /tmp) and the
/// files its command or its `env=` variables name there.
fn show_private(engine: &SandboxedEngine<'_>, cwd: &Path, args: &mut Vec<OsString>) {
    let private = |path: &Path| (PRIVATE_DIRS.iter().chain(&[RUN])).any(|d| path.starts_with(d));
    let shown = Some(cwd).filter(|cwd| private(cwd));
    let files = (engine.files.iter())
        .filter(|f| private(f) && !shown.is_some_and(|cwd| f.starts_with(cwd)))
        .map(PathBuf::as_path);
    for path in shown.into_iter().chain(files) {
        args.extend(["--ro-bind".into(), path.into(), path.into()]);
    }
}

/// What the sandbox needs to know of one engine process.
#[derive(Debug)]
pub struct SandboxedEngine<'a> {
    /// The engine's spec number, whose own directory stays in view.
    pub spec: usize,
    /// Its working directory.
    pub cwd: &'a Path,
    /// Its scratch directory: [`TMP`], or a kept one from [`Sandbox::scratch`].
    pub scratch: &'a Path,
    /// The files its command names (the program, a script) and its `env=` variables name, as
    /// absolute paths: they stay in view.
    pub files: &'a [PathBuf],
    /// Its limits: `fsize=` also sizes each of its private temporary file systems.
    pub limits: Limits,
    /// Variables of the referee's environment it is given besides [`PASSED_ENV`] (`env=`).
    pub pass_env: &'a [String],
}

/// The scratch directory of an engine when scratch directories are not kept: its private `/tmp`.
pub const TMP: &str = "/tmp";

/// The private, size-limited temporary file systems every sandboxed engine gets (each as large as
/// its `fsize=`, or [`DEFAULT_TMPFS`]), besides a small `/run`: what it writes there is memory the
/// address-space limit does not count, so each is bounded.
pub const PRIVATE_DIRS: [&str; 3] = [TMP, "/var/tmp", "/dev/shm"];

/// The size of each private temporary file system without `fsize=`.
pub const DEFAULT_TMPFS: u64 = 64 << 20;

/// The size of an empty file system that hides a directory (read-only once mounts are made in it).
const HIDING_SIZE: &str = "65536";

/// The host's runtime directory (sockets, state), which a sandboxed engine gets a small private one
/// in place of.
const RUN: &str = "/run";

/// The size of the private `/run`, which hides the host's sockets and runtime state.
const RUN_SIZE: &str = "1048576";

/// The variables a sandboxed engine keeps from the referee's environment (all others are
/// cleared: a secret in the organiser's environment stays there); `env=` adds more.
pub const PASSED_ENV: [&str; 5] = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];

impl Sandbox {
    /// The user (and group) sandboxed engine `spec` runs as: its `user=`, or, when the referee is
    /// root, a user of its own (see [`crate::engine::users`]), so that no engine is root even in
    /// its own user namespace (root there still owns the host's root-owned files) and no two
    /// engines share a process count, signals or files; `None` runs it as the referee's own,
    /// unprivileged user.
    pub fn run_as(&self, spec: usize, user: Option<(u32, u32)>) -> io::Result<Option<(u32, u32)>> {
        let Some(users) = user.is_none().then_some(self.users.as_ref()).flatten() else {
            return Ok(user);
        };
        users.of(spec).map(Some).ok_or_else(|| {
            io::Error::other(format!(
                "more than {} sandboxed engines in one run: give the others user=",
                crate::engine::users::BLOCK
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(args: Vec<OsString>) -> String {
        let words: Vec<String> = args.into_iter().map(|a| a.into_string().unwrap()).collect();
        words.join(" ")
    }

    #[test]
    fn the_records_logs_and_other_engines_are_hidden_and_only_private_places_are_writable() {
        let base = tempfile::tempdir().unwrap();
        let logs = base.path().join("logs");
        let bots = base.path().join("bots");
        let (mine, theirs) = (bots.join("mine"), bots.join("theirs"));
        for dir in [&logs, &mine, &theirs] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let records = base.path().join("games.jsonl");
        std::fs::write(&records, "").unwrap();
        let dirs = [Some(mine.clone()), Some(theirs.clone())];
        let hidden = [records.clone(), logs.clone()];
        let limits = Limits {
            file_size: Some(1 << 20),
            ..Limits::default()
        };
        let pass_env = ["NO_SUCH_VARIABLE_HERE".to_owned()];
        let engine = |scratch| SandboxedEngine {
            spec: 0,
            cwd: &mine,
            files: &[],
            scratch,
            limits,
            pass_env: &pass_env,
        };
        let (r, l, t, m) = (
            records.display(),
            logs.display(),
            theirs.display(),
            mine.display(),
        );
        let start = "--new-session --die-with-parent --unshare-all --unshare-user --disable-userns \
                     --cap-drop ALL --clearenv --ro-bind / / --dev /dev --proc /proc \
                     --size 1048576 --tmpfs /tmp --size 1048576 --tmpfs /var/tmp \
                     --size 1048576 --tmpfs /dev/shm --size 1048576 --tmpfs /run";
        // The engine's directory is under the temporary directory, which is private: put back.
        let shown = match mine.starts_with("/tmp") {
            true => format!(" --ro-bind {m} {m}"),
            false => String::new(),
        };
        let env: String = PASSED_ENV
            .iter()
            .filter_map(|name| Some(format!(" --setenv {name} {}", std::env::var(name).ok()?)))
            .collect();

        // Scratch directories not kept: the private /tmp.
        let sandbox = Sandbox::new(&hidden, &dirs, None).unwrap();
        let scratch = sandbox.scratch("my bot/1", None).unwrap();
        assert_eq!(scratch, Path::new(TMP));
        let args = text(sandbox.bwrap_args(&engine(&scratch), [5, 6]).unwrap());
        let expected = format!(
            "{start}{shown} --ro-bind /dev/null {r} --size 65536 --tmpfs {l} \
             --size 65536 --tmpfs {t} --remount-ro /dev --remount-ro {l} --remount-ro {t} \
             --chdir {m} --setenv TMPDIR /tmp --setenv HOME /tmp --setenv REFEREE_SCRATCH /tmp{env} \
             --add-seccomp-fd 5 --add-seccomp-fd 6 --"
        );
        assert_eq!(args, expected);

        // Kept: a directory of its own, hidden from the others, bound where it is.
        let kept = base.path().join("scratch");
        let sandbox = Sandbox::new(&hidden, &dirs, Some(&kept)).unwrap();
        let scratch = sandbox.scratch("my bot/1", None).unwrap();
        assert!(scratch.ends_with("scratch/my_bot_1-1"));
        let s = scratch.display();
        let args = text(sandbox.bwrap_args(&engine(&scratch), [5, 6]).unwrap());
        let expected = format!(
            "{start}{shown} --ro-bind /dev/null {r} --size 65536 --tmpfs {l} \
             --size 65536 --tmpfs {k} --size 65536 --tmpfs {t} --bind {s} {s} \
             --remount-ro /dev --remount-ro {l} --remount-ro {k} --remount-ro {t} \
             --chdir {m} --setenv TMPDIR {s} --setenv HOME {s} \
             --setenv REFEREE_SCRATCH {s}{env} --add-seccomp-fd 5 --add-seccomp-fd 6 --",
            k = kept.display()
        );
        assert_eq!(args, expected);
    }

    #[test]
    fn a_root_referee_runs_each_sandboxed_engine_as_a_user_of_its_own_or_its_user() {
        let sandbox = Sandbox::new(&[], &[None, None], None).unwrap();
        let given = Some((64001, 64002));
        assert_eq!(sandbox.run_as(0, given).unwrap(), given);
        let (a, b) = (
            sandbox.run_as(0, None).unwrap(),
            sandbox.run_as(1, None).unwrap(),
        );
        if nix::unistd::geteuid().is_root() {
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_ne!(a, b);
            assert!(
                a.0 >= crate::engine::users::FIRST_UID && a.0 == a.1,
                "{a:?}"
            );
        } else {
            assert_eq!((a, b), (None, None));
        }
    }

    #[test]
    fn the_directory_of_the_run_files_is_hidden_unless_the_engine_needs_it() {
        let base = tempfile::tempdir().unwrap();
        let (runs, bots) = (base.path().join("runs"), base.path().join("bots"));
        for dir in [&runs, &bots] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let records = runs.join("shard-1.jsonl");
        let script = runs.join("bot.py");
        std::fs::write(&records, "").unwrap();
        std::fs::write(&script, "").unwrap();
        let sandbox = Sandbox::new(std::slice::from_ref(&records), &[None], None).unwrap();
        let args = |files: &[PathBuf]| {
            let engine = SandboxedEngine {
                spec: 0,
                cwd: &bots,
                files,
                scratch: Path::new(TMP),
                limits: Limits::default(),
                pass_env: &[],
            };
            text(sandbox.bwrap_args(&engine, [5, 6]).unwrap())
        };
        let (r, d) = (records.display(), runs.display());
        // Other shards' records beside this one's are out of view with it.
        let hidden = args(&[]);
        assert!(
            hidden.contains(&format!("--tmpfs {d} --ro-bind /dev/null {r}"))
                && hidden.contains(&format!("--remount-ro {d}")),
            "{hidden}"
        );
        // An engine whose script lies there keeps the directory, but not the records.
        let shown = args(std::slice::from_ref(&script));
        assert!(!shown.contains(&format!("--tmpfs {d}")), "{shown}");
        assert!(
            shown.contains(&format!("--ro-bind /dev/null {r}")),
            "{shown}"
        );
        // Under the private /tmp, the script is put back in view.
        let s = script.display();
        assert_eq!(
            shown.contains(&format!("--ro-bind {s} {s}")),
            script.starts_with(TMP),
            "{shown}"
        );
    }
}
