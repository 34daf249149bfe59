//! The documentation's links hold: every relative link in `README.md` and
//! `docs/*.md` (`[text](path)`, `![alt](path)`, `[text](path#anchor)`,
//! `[text](#anchor)`) reaches a file or folder of the repository, and every
//! anchor names a heading of the file it points into. `README.md` stays the
//! short front door: at most [`README_MAX_LINES`] lines.
//!
//! Links inside code (fenced blocks and `inline code`) are not links and are
//! not checked; neither are absolute URLs (`https://…`, `mailto:…`).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The most lines `README.md` may have; the reference lives in `docs/`.
const README_MAX_LINES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `README.md` and every `docs/*.md`, sorted.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let docs = std::fs::read_dir(root().join("docs")).expect("docs/ exists");
    let mut pages: Vec<PathBuf> = docs
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of `text` outside fenced code blocks, with their line numbers
/// (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// `line` with every `` `code` `` span replaced by spaces.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// The targets of the Markdown links on `line`: what stands between `](` and
/// the closing `)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let end = after.find([')', ' ']).unwrap_or(after.len());
        targets.push(after[..end].to_string());
        rest = &after[end..];
    }
    targets
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and
/// `_` kept, spaces turned into `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of every heading of `text`, numbered as GitHub numbers repeated
/// ones (`name`, `name-1`, `name-2`, …).
fn anchors(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..].replace('`', ""));
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

fn is_absolute_url(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// Every broken link of `document`, as `file:line: target (why)`.
fn broken_links(document: &Path) -> Vec<String> {
    let text = read(document);
    let here = document.parent().expect("a folder");
    let name = document.strip_prefix(root()).unwrap_or(document).display();
    let mut broken = Vec::new();
    for (number, line) in prose_lines(&text) {
        for target in link_targets(&without_code_spans(line)) {
            if target.is_empty() || is_absolute_url(&target) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                document.to_path_buf()
            } else {
                here.join(path)
            };
            if !file.exists() {
                broken.push(format!("{name}:{number}: {target} (no such file)"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_markdown = file.extension().is_some_and(|e| e == "md");
                if !is_markdown || !anchors(&read(&file)).contains(anchor) {
                    broken.push(format!("{name}:{number}: {target} (no such heading)"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_reaches_a_file_and_every_anchor_a_heading() {
    let documents = documents();
    assert!(
        documents.len() > 1,
        "README.md and the pages of docs/ are found"
    );
    let broken: Vec<String> = documents.iter().flat_map(|d| broken_links(d)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_short() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, at most {README_MAX_LINES}: move reference material into docs/"
    );
}

#[test]
fn the_link_checker_sees_links_anchors_and_code() {
    assert_eq!(
        link_targets("see [a](docs/a.md#x-y) and ![b](b.png \"t\") or [c](#c)"),
        ["docs/a.md#x-y", "b.png", "#c"]
    );
    assert_eq!(without_code_spans("a `[x](y)` b"), "a          b");
    assert_eq!(
        slug(" The shipped module's size"),
        "the-shipped-modules-size"
    );
    assert_eq!(
        slug(" Two builds: with and without wasm SIMD"),
        "two-builds-with-and-without-wasm-simd"
    );
    let text = "# Top\n\n```\n# not a heading\n```\n## Top\n#nospace\n### `mountCloth` and its controller\n";
    let found = anchors(text);
    let expected: HashSet<String> = ["top", "top-1", "mountcloth-and-its-controller"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(found, expected);
}
