//! The documents kept honest: every link between them resolves (to a file, and to a heading where
//! it names one), and the code map names files that exist.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown document a reader is given: the top-level ones, the manual, the Python package's.
fn documents() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "README.md",
        "protocol.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "python/README.md",
    ]
    .iter()
    .map(|name| root().join(name))
    .collect();
    files.extend(common::files_under(&root().join("docs"), &["md"]));
    files
}

/// The targets of a text's inline links and images, `[text](target)`, outside code.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || line.starts_with("    ") {
            continue;
        }
        // Quoted code holds no links: only the parts between backquotes are read.
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                continue;
            }
            let mut rest = part;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let Some(end) = after.find(')') else { break };
                found.push(after[..end].to_owned());
                rest = &after[end..];
            }
        }
    }
    found
}

/// A heading's anchor as GitHub makes it: lower case, spaces as hyphens, other punctuation gone.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> HashSet<String> {
    let mut in_fence = false;
    let mut found = HashSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(anchor(" Thinking aloud: `info`"), "thinking-aloud-info");
    assert_eq!(anchor(" CodeCup programs"), "codecup-programs");
    assert_eq!(
        anchor(" Shards of a Swiss or knockout"),
        "shards-of-a-swiss-or-knockout"
    );
}

#[test]
fn every_link_between_the_documents_resolves() {
    let documents = documents();
    assert!(documents.len() > 20, "{documents:?}");
    let mut checked = 0;
    let mut broken = Vec::new();
    for document in &documents {
        let text = std::fs::read_to_string(document).expect("a document");
        let folder = document.parent().expect("a document's folder");
        for link in links(&text) {
            if link.starts_with("https://") || link.starts_with("http://") {
                continue;
            }
            let (file, heading) = match link.split_once('#') {
                Some((file, heading)) => (file, Some(heading)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                document.clone()
            } else {
                folder.join(file)
            };
            checked += 1;
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", document.display()));
                continue;
            }
            if let Some(heading) = heading {
                let text = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&text).contains(heading) {
                    broken.push(format!("{}: {link} (no such heading)", document.display()));
                }
            }
        }
    }
    assert!(checked > 40, "{checked} links");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Whether `name` is a file or folder under `folder`, at any depth.
fn under(folder: &Path, name: &str) -> bool {
    let mut dirs = vec![folder.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        if dir.join(name).exists() {
            return true;
        }
        if let Ok(entries) = std::fs::read_dir(&dir) {
            dirs.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
        }
    }
    false
}

#[test]
fn the_code_map_names_files_that_exist() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut folder = root().to_path_buf();
    let mut named = 0;
    let mut missing = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            let path = heading.trim().trim_matches('`');
            folder = match root().join(path) {
                dir if dir.is_dir() => dir,
                _ => root().to_path_buf(),
            };
            continue;
        }
        if line.starts_with("## ") {
            folder = root().to_path_buf();
        }
        for (i, quoted) in line.split('`').enumerate() {
            let is_path =
                quoted.ends_with(".rs") || quoted.ends_with(".py") || quoted.ends_with('/');
            let plain = quoted
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
            if i % 2 == 0 || !is_path || !plain {
                continue;
            }
            named += 1;
            if !under(&folder, quoted) && !root().join(quoted).exists() {
                missing.push(format!("{quoted} (under {})", folder.display()));
            }
        }
    }
    assert!(named > 60, "{named} paths named");
    assert!(
        missing.is_empty(),
        "not in the tree:\n{}",
        missing.join("\n")
    );
}
