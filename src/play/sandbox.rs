//! The sandbox an engine may run in (`sandbox=bwrap`): bubblewrap's command line, and the scratch
//! directories, one per sandboxed process, that are all it may write to.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The program that confines engines.
pub const BWRAP: &str = "bwrap";

/// What every sandboxed engine of a run is kept from, and where its scratch directories go.
#[derive(Debug)]
pub struct Sandbox {
    /// Paths no sandboxed engine may see (the records file, the transcripts' directory, the
    /// scratch root), absolute; each engine is also kept from the other engines' directories.
    hidden: Vec<PathBuf>,
    /// Every engine's own directory (`dir=`), absolute, by spec.
    dirs: Vec<Option<PathBuf>>,
    scratch_root: ScratchRoot,
    made: AtomicUsize,
}

/// Where scratch directories go: kept (`--scratch-dir`) or removed when the run ends.
#[derive(Debug)]
enum ScratchRoot {
    Kept(PathBuf),
    Temporary(tempfile::TempDir),
}

impl ScratchRoot {
    fn path(&self) -> &Path {
        match self {
            ScratchRoot::Kept(path) => path,
            ScratchRoot::Temporary(dir) => dir.path(),
        }
    }
}

impl Sandbox {
    /// The sandbox of a run: `hidden` are the paths of the run no engine may see; `dirs` are the
    /// engines' own directories, by spec; scratch directories go under `scratch` (kept), or under
    /// a temporary directory removed when the run ends.
    pub fn new(
        hidden: &[PathBuf],
        dirs: &[Option<PathBuf>],
        scratch: Option<&Path>,
    ) -> io::Result<Sandbox> {
        let scratch_root = match scratch {
            Some(path) => {
                std::fs::create_dir_all(path)?;
                ScratchRoot::Kept(std::path::absolute(path)?)
            }
            None => ScratchRoot::Temporary(tempfile::Builder::new().prefix("referee-").tempdir()?),
        };
        let mut all_hidden = Vec::new();
        for path in hidden {
            all_hidden.push(std::path::absolute(path)?);
        }
        all_hidden.push(scratch_root.path().to_owned());
        let dirs = dirs
            .iter()
            .map(|d| d.as_deref().map(std::path::absolute).transpose())
            .collect::<io::Result<_>>()?;
        Ok(Sandbox {
            hidden: all_hidden,
            dirs,
            scratch_root,
            made: AtomicUsize::new(0),
        })
    }

    /// A new, empty scratch directory for one process of engine `name`, owned by `owner` (a
    /// uid and gid) when it runs as another user, readable by it alone.
    pub fn scratch(&self, name: &str, owner: Option<(u32, u32)>) -> io::Result<PathBuf> {
        use std::os::unix::fs::DirBuilderExt;
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
        let path = self.scratch_root.path().join(format!("{safe}-{n}"));
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(&path, Some(uid), Some(gid))?;
        }
        Ok(path)
    }

    /// The bubblewrap arguments that run engine `spec` (working in `cwd`) with `scratch` as the
    /// only place it may write; the engine's own command follows them.
    pub fn bwrap_args(&self, spec: usize, cwd: &Path, scratch: &Path) -> io::Result<Vec<OsString>> {
        let cwd = std::path::absolute(cwd)?;
        let mut args: Vec<OsString> = [
            "--die-with-parent",
            "--unshare-all",
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
        ]
        .map(OsString::from)
        .to_vec();
        let others = self
            .dirs
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != spec)
            .filter_map(|(_, dir)| dir.as_ref());
        for path in self.hidden.iter().chain(others) {
            // A directory that holds the engine's own is left in view, or the engine could not run.
            if cwd.starts_with(path) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            if meta.is_dir() {
                args.extend(["--tmpfs".into(), path.into()]);
            } else {
                args.extend(["--ro-bind".into(), "/dev/null".into(), path.into()]);
            }
        }
        args.extend(["--bind".into(), scratch.into(), scratch.into()]);
        args.extend(["--chdir".into(), cwd.into()]);
        for variable in ["TMPDIR", "HOME", "REFEREE_SCRATCH"] {
            args.extend(["--setenv".into(), variable.into(), scratch.into()]);
        }
        args.push("--".into());
        Ok(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_records_logs_and_other_engines_are_hidden_and_only_the_scratch_is_writable() {
        let base = tempfile::tempdir().unwrap();
        let logs = base.path().join("logs");
        let bots = base.path().join("bots");
        let (mine, theirs) = (bots.join("mine"), bots.join("theirs"));
        for dir in [&logs, &mine, &theirs] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let records = base.path().join("games.jsonl");
        std::fs::write(&records, "").unwrap();
        let sandbox = Sandbox::new(
            &[records.clone(), logs.clone()],
            &[Some(mine.clone()), Some(theirs.clone())],
            Some(&base.path().join("scratch")),
        )
        .unwrap();
        let scratch = sandbox.scratch("my bot/1", None).unwrap();
        assert!(scratch.ends_with("scratch/my_bot_1-1"));
        let args: Vec<String> = sandbox
            .bwrap_args(0, &mine, &scratch)
            .unwrap()
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        let text = args.join(" ");
        let (r, l, t, s) = (
            records.display(),
            logs.display(),
            theirs.display(),
            scratch.display(),
        );
        let root = base.path().join("scratch");
        let expected = format!(
            "--die-with-parent --unshare-all --cap-drop ALL --ro-bind / / --dev /dev --proc /proc \
             --ro-bind /dev/null {r} --tmpfs {l} --tmpfs {} --tmpfs {t} --bind {s} {s} \
             --chdir {} --setenv TMPDIR {s} --setenv HOME {s} --setenv REFEREE_SCRATCH {s} --",
            root.display(),
            mine.display()
        );
        assert_eq!(text, expected);
    }
}
