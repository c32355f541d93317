//! The code keeps the order ARCHITECTURE.md gives it: each layer (a folder or file of `src/`)
//! imports only the layers listed under it, and no files of one folder import each other in a
//! circle.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every source file of `src/` by its module path (`engine::sys::linux::child`; `""` for the
/// crate).
fn modules() -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    for path in common::files_under(&root().join("src"), &["rs"]) {
        let relative = path.strip_prefix(root().join("src")).expect("under src/");
        let mut parts: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|last| last == "mod") {
            parts.pop();
        }
        if parts == ["lib"] || parts == ["main"] {
            parts.clear();
        }
        found.insert(parts.join("::"), path);
    }
    found
}

/// The code of a file without its comments and its `mod tests` (tests may reach anywhere).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file's code names from `crate::`, `super::` and `self::`, as module paths.
fn named_paths(module: &str, code: &str) -> Vec<String> {
    let own: Vec<&str> = module.split("::").filter(|p| !p.is_empty()).collect();
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            let words: Vec<&str> = code[at..end]
                .split("::")
                .filter(|w| !w.is_empty())
                .collect();
            // `self` is the file's own module (a folder's `mod.rs` or a file alike), `super` the
            // one above it, and each further `super` one more.
            let mut base: Vec<&str> = match words[0] {
                "crate" => Vec::new(),
                "self" => own.clone(),
                _ => own[..own.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &words[1..];
            while let Some((&"super", tail)) = rest.split_first() {
                base.pop();
                rest = tail;
            }
            base.extend(rest);
            paths.push(base.join("::"));
        }
    }
    paths
}

/// Which module of `modules` a path names: its longest prefix that is one.
fn module_of<'m>(modules: &'m BTreeMap<String, PathBuf>, path: &str) -> Option<&'m str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|prefix| modules.get_key_value(&prefix).map(|(k, _)| k.as_str()))
}

/// Each module and the other modules it imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let text = std::fs::read_to_string(path).expect("a source file");
        let used: BTreeSet<String> = named_paths(module, &code(&text))
            .iter()
            .filter_map(|p| module_of(&modules, p))
            .filter(|m| *m != module && !m.is_empty())
            .map(str::to_owned)
            .collect();
        graph.insert(module.clone(), used);
    }
    graph
}

/// The layers in ARCHITECTURE.md's order: its code map's headings that name `src/...`.
fn layers() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    text.lines()
        .filter_map(|line| line.strip_prefix("### `src/"))
        .map(|rest| {
            let name = rest.trim_end_matches('`').trim_end_matches('/');
            name.trim_end_matches(".rs").to_owned()
        })
        .collect()
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

#[test]
fn paths_are_read_as_modules() {
    let paths = named_paths("engine::talk", "use crate::engine::pipes::{A, B};");
    assert_eq!(paths, ["engine::pipes"]);
    let paths = named_paths("play::table", "use super::codecup::X; self::tests");
    assert_eq!(paths, ["play::codecup::X", "play::table::tests"]);
    let paths = named_paths(
        "engine::sys::linux::child",
        "super::super::super::command::Ending",
    );
    assert_eq!(paths, ["engine::command::Ending"]);
}

#[test]
fn each_layer_imports_only_the_layers_under_it() {
    let layers = layers();
    assert!(layers.len() >= 10, "{layers:?}");
    let rank = |module: &str| layers.iter().position(|l| l == top(module));
    let mut wrong = Vec::new();
    for (module, used) in imports() {
        let Some(mine) = rank(&module) else { continue };
        for other in used {
            if let Some(theirs) = rank(&other)
                && theirs < mine
            {
                wrong.push(format!("{module} imports {other}, a layer above it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_files_of_one_folder_import_each_other_in_a_circle() {
    let graph = imports();
    let folder = |m: &str| m.rsplit_once("::").map_or("", |(f, _)| f).to_owned();
    // Depth-first search for a way back to where it started, among one folder's files.
    let mut circles = Vec::new();
    for start in graph.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if folder(next) != folder(start) {
                    continue;
                }
                if next == start {
                    circles.push(path.join(" -> ") + " -> " + start);
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}
