//! The sandbox an engine may run in (`sandbox=bwrap`): bubblewrap's command line, and the scratch
//! directories, one per sandboxed process, that are all it may write to.

use std::ffi::OsString;
use std::io;
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::users::EngineUsers;
use crate::engine::limits::Limits;

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
    /// The referee's own program, in every engine's view: engines run `referee session` or
    /// `referee bot` as their rules.
    exe: Option<PathBuf>,
    /// The folder of the copy of the referee's program the engines' users may read, when they
    /// may not read the program itself: the copy is shown in the program's place.
    exe_copy: Option<PathBuf>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(dir) = &self.exe_copy {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// What to do about a sandboxed engine that bubblewrap could not start, when its failure
/// (`detail`, with the engine's stderr) says why in bubblewrap's words: a path of the engine's
/// that its user may not reach (to bind it, or to run it).
pub fn start_hint(detail: &str) -> Option<&'static str> {
    let bwrap_said = |what: &str| detail.contains(&format!("bwrap: {what}"));
    let unreachable = (bwrap_said("Can't find source path") || bwrap_said("execvp"))
        && detail.contains("Permission denied");
    unreachable.then_some(
        "the sandboxed engine's user cannot reach that path (a folder on it is closed to other \
         users): keep sandboxed engines where other users may read them",
    )
}

/// Whether a user other than the file's owner and group may reach and run `path`: every folder
/// above it searchable by others, the file readable and executable by them.
fn others_reach(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.permissions().mode());
    let folders_open = path.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0);
    folders_open && mode(path) & 0o005 == 0o005
}

/// A copy of `exe` any user may read and run, in a new folder of the system's temporary
/// directory (root's, mode 0755); `None` if it cannot be made.
fn readable_copy(exe: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    // One folder per sandbox: a process may hold several at once (tests do).
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let name = format!("referee-program-{}-{n}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::DirBuilder::new().mode(0o755).create(&dir).ok()?;
    let copy = dir.join("referee");
    let made = std::fs::copy(exe, &copy)
        .and_then(|_| std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)));
    match made {
        Ok(()) => Some(dir),
        Err(_) => {
            let _ = std::fs::remove_dir_all(&dir);
            None
        }
    }
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
        let exe = std::env::current_exe().ok();
        // Engines of a root referee run as users of their own, who may not reach the referee's
        // program where it lies (`cargo install` puts it in root's home, closed to others): they
        // get a copy they may read, made for the run and removed after it.
        let exe_copy = match (&users, &exe) {
            (Some(_), Some(exe)) if !others_reach(exe) => readable_copy(exe),
            _ => None,
        };
        Ok(Sandbox {
            hidden: all_hidden,
            dirs,
            kept,
            made: AtomicUsize::new(0),
            users,
            exe,
            exe_copy,
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
    /// environment); the two seccomp programs of [`super::seccomp`] are read from
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
        // No `--new-session`: the engine has left the terminal already (see
        // `engine::process::begin`), and its seccomp program refuses TIOCSTI besides.
        push(&[
            "--die-with-parent",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--cap-drop",
            "ALL",
            "--clearenv",
        ]);
        system_view(&mut args);
        let mut push = |words: &[&str]| args.extend(words.iter().map(OsString::from));
        push(&["--dev", "/dev", "--proc", "/proc"]);
        for dir in PRIVATE_DIRS {
            push(&["--size", &size, "--tmpfs", dir]);
        }
        push(&["--size", RUN_SIZE, "--tmpfs", RUN]);
        let mut own = own_paths(engine);
        let copy = self.exe_copy.as_ref().map(|dir| dir.join("referee"));
        let mut copy_bind = None;
        match (&self.exe, copy) {
            // The copy shown where the program is, so that its path (the built-in bots'
            // command, a `PATH` lookup) finds it; the folder holding the program, which the
            // engine's user cannot read, is left out of view.
            (Some(exe), Some(copy)) => {
                own.retain(|p| p != exe && Some(p.as_path()) != exe.parent());
                copy_bind = Some((copy, exe));
            }
            (Some(exe), None) if !in_view(exe, &own) => own.push(exe.clone()),
            _ => {}
        }
        for path in &own {
            args.extend(["--ro-bind".into(), path.into(), path.into()]);
        }
        if let Some((copy, exe)) = copy_bind {
            args.extend(["--ro-bind".into(), copy.into(), exe.into()]);
        }
        if !in_view(&cwd, &own) {
            args.extend(["--dir".into(), cwd.as_os_str().into()]);
        }
        let emptied = self.hide(engine, &cwd, &own, &mut args);
        let scratch = engine.scratch;
        if scratch != Path::new(TMP) {
            args.extend(["--bind".into(), scratch.into(), scratch.into()]);
        }
        // Read-only once everything is mounted in them: the file systems bubblewrap makes for the
        // root, the device nodes and to hide directories would otherwise take whatever the engine
        // writes there, in memory no limit counts. Device nodes stay writable on a read-only
        // file system (`/dev/null`), and the mounts in them (`/dev/shm`, the scratch) are their
        // own.
        for path in [Path::new("/"), Path::new("/dev")]
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
        own: &[PathBuf],
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
            // Only what the engine would see; and a directory that holds its own, or a file its
            // command names, is left in view, or the engine could not run.
            let mut needed = own.iter().map(PathBuf::as_path).chain([cwd]);
            if !in_view(path, own) || needed.any(|n| n.starts_with(path)) {
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

/// The system's programs and libraries, read-only, as the host has them: each of
/// [`SYSTEM_DIRS`] that exists, a directory bound, a link (`/bin` to `usr/bin`) made again.
fn system_view(args: &mut Vec<OsString>) {
    for dir in SYSTEM_DIRS {
        let Ok(meta) = std::fs::symlink_metadata(dir) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            if let Ok(target) = std::fs::read_link(dir) {
                args.extend(["--symlink".into(), target.into(), dir.into()]);
            }
        } else if meta.is_dir() {
            args.extend(["--ro-bind".into(), dir.into(), dir.into()]);
        }
    }
}

/// The host's directories every sandboxed engine sees, read-only: the system's programs,
/// libraries and configuration. Nothing else of the host is in view but the engine's own.
pub const SYSTEM_DIRS: [&str; 11] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys", "/nix",
];

/// Whether the host's `path` is in an engine's view: under the system's directories or its own
/// (`own`).
fn in_view(path: &Path, own: &[PathBuf]) -> bool {
    let system = SYSTEM_DIRS.iter().map(Path::new);
    system
        .chain(own.iter().map(PathBuf::as_path))
        .any(|root| path.starts_with(root))
}

/// What of the host an engine sees as its own, read-only (besides the referee's program, which every
/// engine sees): its `dir=`; and each file its command
/// names, with the directory that holds it unless the engine has a `dir=` or that directory is
/// the organiser's home or holds it (then the file alone); and the files its `env=` variables
/// name. Paths the system's directories show already are left out.
fn own_paths(engine: &SandboxedEngine<'_>) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute());
    let too_wide = |dir: &Path| home.as_ref().is_some_and(|h| h.starts_with(dir));
    let mut own: Vec<PathBuf> = engine.dir.iter().map(|d| d.to_path_buf()).collect();
    let program_dirs = engine.files.iter().map(|file| match file.parent() {
        Some(dir) if engine.dir.is_none() && !too_wide(dir) => dir.to_path_buf(),
        _ => file.clone(),
    });
    for path in program_dirs.chain(engine.env_files.iter().cloned()) {
        let system = SYSTEM_DIRS.iter().any(|d| path.starts_with(d));
        if !system && !own.iter().any(|o| path.starts_with(o)) {
            own.retain(|o| !o.starts_with(&path));
            own.push(path);
        }
    }
    own
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
    /// Its own directory (`dir=`), absolute, if it has one: in view, read-only.
    pub dir: Option<&'a Path>,
    /// The files its command names (the program, a script), as absolute paths: in view, with
    /// their directory where that is not too wide (see `own_paths`).
    pub files: &'a [PathBuf],
    /// The files its `env=` variables name, as absolute paths: in view, alone.
    pub env_files: &'a [PathBuf],
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
    /// root, a user of its own (see [`super::users`]), so that no engine is root even in
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
                super::users::BLOCK
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

    /// An engine of spec 0 with directory `dir` (if any), working in `cwd`, whose command names
    /// `files`.
    fn engine<'a>(
        dir: Option<&'a Path>,
        cwd: &'a Path,
        files: &'a [PathBuf],
        scratch: &'a Path,
    ) -> SandboxedEngine<'a> {
        SandboxedEngine {
            spec: 0,
            cwd,
            dir,
            files,
            env_files: &[],
            scratch,
            limits: Limits {
                file_size: Some(1 << 20),
                ..Limits::default()
            },
            pass_env: &[],
        }
    }

    #[test]
    fn an_engine_sees_the_system_and_its_own_directory_and_writes_only_to_private_places() {
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
        let (r, l, t, m) = (
            records.display().to_string(),
            logs.display().to_string(),
            theirs.display().to_string(),
            mine.display().to_string(),
        );
        let start = "--die-with-parent --unshare-all --unshare-user --disable-userns \
                     --cap-drop ALL --clearenv ";
        // The referee's own program is in every engine's view (here, the test's): itself, or
        // its readable copy in its place where a root referee's engines could not read it.
        let exe = std::env::current_exe().unwrap();
        let e = |sandbox: &Sandbox| {
            let source = match nix::unistd::geteuid().is_root() && !others_reach(&exe) {
                true => sandbox.exe_copy.as_ref().unwrap().join("referee"),
                false => exe.clone(),
            };
            format!("--ro-bind {} {}", source.display(), exe.display())
        };
        let private = "--dev /dev --proc /proc --size 1048576 --tmpfs /tmp \
                       --size 1048576 --tmpfs /var/tmp --size 1048576 --tmpfs /dev/shm \
                       --size 1048576 --tmpfs /run";

        // Scratch directories not kept: the private /tmp.
        let sandbox = Sandbox::new(&hidden, &dirs, None).unwrap();
        let scratch = sandbox.scratch("my bot/1", None).unwrap();
        assert_eq!(scratch, Path::new(TMP));
        let args =
            text((sandbox.bwrap_args(&engine(Some(&mine), &mine, &[], &scratch), [5, 6])).unwrap());
        assert!(args.starts_with(start), "{args}");
        assert!(!args.contains("--ro-bind / /"), "{args}");
        assert!(args.contains("--ro-bind /usr /usr"), "{args}");
        let e_now = e(&sandbox);
        let expected = format!(
            "{private} --ro-bind {m} {m} {e_now} --remount-ro / --remount-ro /dev \
             --chdir {m} \
             --setenv TMPDIR /tmp --setenv HOME /tmp --setenv REFEREE_SCRATCH /tmp"
        );
        assert!(args.contains(&expected), "{args}\n{expected}");
        assert!(
            args.ends_with("--add-seccomp-fd 5 --add-seccomp-fd 6 --"),
            "{args}"
        );
        // The records, the logs and the other engine's directory are not in view at all.
        for other in [&r, &l, &t] {
            assert!(!args.contains(other.as_str()), "{other} in {args}");
        }

        // Kept: a directory of its own, bound where it is.
        let kept = base.path().join("scratch");
        let sandbox = Sandbox::new(&hidden, &dirs, Some(&kept)).unwrap();
        let scratch = sandbox.scratch("my bot/1", None).unwrap();
        assert!(scratch.ends_with("scratch/my_bot_1-1"));
        let s = scratch.display();
        let args =
            text((sandbox.bwrap_args(&engine(Some(&mine), &mine, &[], &scratch), [5, 6])).unwrap());
        let e_now = e(&sandbox);
        let expected = format!(
            "--ro-bind {m} {m} {e_now} --bind {s} {s} --remount-ro / --remount-ro /dev \
             --chdir {m} \
             --setenv TMPDIR {s} --setenv HOME {s} --setenv REFEREE_SCRATCH {s}"
        );
        assert!(args.contains(&expected), "{args}\n{expected}");
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
            assert!(a.0 >= super::super::users::FIRST_UID && a.0 == a.1, "{a:?}");
        } else {
            assert_eq!((a, b), (None, None));
        }
    }

    #[test]
    fn the_run_files_beside_an_engines_script_are_hidden_and_the_rest_is_out_of_view() {
        let base = tempfile::tempdir().unwrap();
        let (runs, bots) = (base.path().join("runs"), base.path().join("bots"));
        let logs = runs.join("logs");
        for dir in [&logs, &bots] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let records = runs.join("shard-1.jsonl");
        let script = runs.join("bot.py");
        std::fs::write(&records, "").unwrap();
        std::fs::write(&script, "").unwrap();
        let sandbox = Sandbox::new(&[records.clone(), logs.clone()], &[None], None).unwrap();
        let args = |files: &[PathBuf]| {
            let engine = engine(None, &bots, files, Path::new(TMP));
            text(sandbox.bwrap_args(&engine, [5, 6]).unwrap())
        };
        let (r, d, l, b) = (
            records.display(),
            runs.display(),
            logs.display(),
            bots.display(),
        );
        // Nothing named: the working directory is an empty one, and the runs are out of view.
        let bare = args(&[]);
        assert!(bare.contains(&format!("--dir {b} ")), "{bare}");
        assert!(!bare.contains(&format!("{d}")), "{bare}");
        // A script there: its directory is in view, and the run's files in it are hidden one by
        // one, the emptied logs read-only.
        let shown = args(std::slice::from_ref(&script));
        for part in [
            format!("--ro-bind {d} {d}"),
            format!("--ro-bind /dev/null {r}"),
            format!("--size 65536 --tmpfs {l}"),
            format!("--remount-ro {l}"),
        ] {
            assert!(shown.contains(&part), "{part} not in {shown}");
        }
        assert!(!shown.contains(&format!("--tmpfs {d} ")), "{shown}");
    }
}
