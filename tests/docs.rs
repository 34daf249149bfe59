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

/// The folders whose source files' comments are checked, and the kinds of
/// file: Rust, JavaScript, shell.
const SOURCE_FOLDERS: &[&str] = &[
    "src",
    "tests",
    "benches",
    "examples",
    "www",
    "bench",
    "scripts",
    "packaging",
];
const SOURCE_EXTENSIONS: &[&str] = &["rs", "js", "mjs", "ts", "sh", "html"];

/// The top-level places a comment may cite: a path starting with one of these
/// is checked (build output, `pkg/` and `target/`, is not in the repository).
const CITED_ROOTS: &[&str] = &[
    "src/",
    "tests/",
    "benches/",
    "examples/",
    "www/",
    "bench/",
    "scripts/",
    "packaging/",
    "docs/",
    "README.md",
    "Cargo.toml",
    "index.html",
    "package.json",
];

/// Every source file under [`SOURCE_FOLDERS`], sorted.
fn source_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("an entry").path();
            let name = path.file_name().unwrap().to_string_lossy();
            if name == "node_modules" || name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e.to_string_lossy().as_ref()))
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for folder in SOURCE_FOLDERS {
        walk(&root().join(folder), &mut files);
    }
    files.sort();
    files
}

/// The comment text of each line of a source file `text` with extension
/// `extension`, with its line number (from 1): what follows `//` (Rust,
/// JavaScript; a `//` right after `:` is a URL), a line of a `/* … */`
/// block, `<!-- … -->` in HTML, or `#` in a shell script.
fn comments(text: &str, extension: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let comment = if extension == "sh" {
            trimmed.strip_prefix('#').map(str::to_string)
        } else if in_block || trimmed.starts_with("/*") || trimmed.starts_with("<!--") {
            in_block = !(line.contains("*/") || line.contains("-->"));
            Some(line.to_string())
        } else {
            let slashes = line
                .match_indices("//")
                .find(|(k, _)| !line[..*k].ends_with(':'));
            slashes.map(|(k, _)| line[k + 2..].to_string())
        };
        if let Some(comment) = comment {
            out.push((index + 1, comment));
        }
    }
    out
}

/// The repository paths a comment cites: words starting with one of
/// [`CITED_ROOTS`] (not inside a longer path), without a trailing `:line`
/// or punctuation, each with the section it names, if any: `#anchor`, or a
/// quoted heading after it (a comma between them, or none).
fn cited_paths(comment: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let bytes = comment.as_bytes();
    let mut k = 0;
    while k < comment.len() {
        let starts = CITED_ROOTS.iter().any(|r| comment[k..].starts_with(r))
            || comment[k..].starts_with("README ")
            || comment[k..].starts_with("README,");
        let boundary =
            k == 0 || !(bytes[k - 1].is_ascii_alphanumeric() || b"/._-".contains(&bytes[k - 1]));
        if !(starts && boundary) {
            k += comment[k..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let end = comment[k..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-#*{}".contains(c)))
            .map_or(comment.len(), |e| k + e);
        let word = comment[k..end].trim_end_matches(['.', ',', ':', ';']);
        let (path, mut section) = match word.split_once('#') {
            Some((path, anchor)) => (path.to_string(), Some(anchor.to_string())),
            None => (word.to_string(), None),
        };
        let after = comment[k + word.len()..].trim_start_matches([',', ' ']);
        if section.is_none() && (path.ends_with(".md") || path == "README") {
            if let Some(quoted) = after.strip_prefix('"') {
                section = quoted.split_once('"').map(|(h, _)| slug(h));
            }
        }
        if !path.contains(['*', '{']) {
            out.push((path, section));
        }
        k = end;
    }
    out
}

#[test]
fn every_path_and_section_a_comment_cites_exists() {
    let files = source_files();
    assert!(files.len() > 100, "found only {} source files", files.len());
    let mut broken = Vec::new();
    for file in &files {
        let extension = file.extension().unwrap().to_string_lossy();
        let name = file.strip_prefix(root()).unwrap().display();
        for (number, comment) in comments(&read(file), &extension) {
            for (path, section) in cited_paths(&comment) {
                let path = if path == "README" {
                    "README.md".into()
                } else {
                    path
                };
                let target = root().join(&path);
                if !target.exists() {
                    broken.push(format!("{name}:{number}: {path} (no such file)"));
                } else if let Some(section) = section {
                    let is_markdown = target.extension().is_some_and(|e| e == "md");
                    if !is_markdown || !anchors(&read(&target)).contains(&section) {
                        broken.push(format!(
                            "{name}:{number}: {path} \"{section}\" (no such section)"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "comments cite what is not there:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_citation_checker_finds_paths_sections_and_comments() {
    assert_eq!(
        cited_paths(
            "see src/cloth/step.rs:12, docs/limits.md#speed and README, \"Limits and errors\"."
        ),
        [
            ("src/cloth/step.rs".to_string(), None),
            ("docs/limits.md".to_string(), Some("speed".to_string())),
            ("README".to_string(), Some("limits-and-errors".to_string())),
        ]
    );
    assert_eq!(
        cited_paths("../src/x.rs, tests/e2e/*.test.mjs, the_src/ and a.docs/b"),
        []
    );
    // written so that this file's own comments cite nothing
    let rust = concat!(
        "let url = \"https://x\"; /",
        "/ see a.rs\n/* block\n   b.js */\nx();\n"
    );
    assert_eq!(
        comments(rust, "rs"),
        [
            (1, " see a.rs".to_string()),
            (2, "/* block".into()),
            (3, "   b.js */".into())
        ]
    );
    assert_eq!(
        comments("echo a # no\n  # docs/x.md\n", "sh"),
        [(2, " docs/x.md".to_string())]
    );
}

// ---------------------------------------------------------------------------
// docs/tests.md: the index from each feature to its tests.

/// The test files `docs/tests.md` must cite: every `tests/*.rs` (each a test
/// target), every `tests/e2e/*.test.mjs`, and `tests/experiments/main.rs`.
fn test_files() -> Vec<String> {
    let mut files = Vec::new();
    for (folder, suffix) in [("tests", ".rs"), ("tests/e2e", ".test.mjs")] {
        for entry in std::fs::read_dir(root().join(folder)).expect("the tests folder") {
            let name = entry.expect("an entry").file_name();
            let name = name.to_string_lossy();
            if name.ends_with(suffix) {
                files.push(format!("{folder}/{name}"));
            }
        }
    }
    files.push("tests/experiments/main.rs".to_string());
    files.sort();
    files
}

/// Every `tests/…` citation in inline code of `text`: the path, and the test
/// named after `::`, if any.
fn cited_tests(text: &str) -> Vec<(String, Option<String>)> {
    let mut cited = Vec::new();
    for (_, line) in prose_lines(text) {
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 1 && span.starts_with("tests/") {
                match span.split_once("::") {
                    Some((path, name)) => cited.push((path.to_string(), Some(name.to_string()))),
                    None => cited.push((span.to_string(), None)),
                }
            }
        }
    }
    cited
}

/// Whether the test file at `path` holds a test called `name`: a Rust
/// function `fn name(` or an end-to-end test whose title contains `name`.
fn has_test(path: &str, name: &str) -> bool {
    let text = read(&root().join(path));
    if path.ends_with(".rs") {
        text.contains(&format!("fn {name}("))
    } else {
        text.contains(name)
    }
}

#[test]
fn every_test_file_is_in_the_feature_index_and_every_citation_exists() {
    let index = read(&root().join("docs/tests.md"));
    let cited = cited_tests(&index);
    let mut problems = Vec::new();
    for file in test_files() {
        if !cited.iter().any(|(path, _)| *path == file) {
            problems.push(format!("{file} is not in docs/tests.md"));
        }
    }
    for (path, name) in &cited {
        if !root().join(path).exists() {
            problems.push(format!("docs/tests.md cites {path}, which does not exist"));
        } else if let Some(name) = name {
            if !has_test(path, name) {
                problems.push(format!(
                    "docs/tests.md cites {path}::{name}, which has no such test"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_feature_index_checker_reads_paths_and_test_names() {
    let text = "| x | `tests/a.rs`, `tests/b.rs::c_d` and `src/e.rs` |\n```\n`tests/f.rs`\n```\n";
    assert_eq!(
        cited_tests(text),
        [
            ("tests/a.rs".to_string(), None),
            ("tests/b.rs".to_string(), Some("c_d".to_string()))
        ]
    );
    assert!(test_files().contains(&"tests/docs.rs".to_string()));
    assert!(has_test(
        "tests/docs.rs",
        "the_feature_index_checker_reads_paths_and_test_names"
    ));
    assert!(!has_test("tests/docs.rs", "no_such_test_anywhere"));
}
