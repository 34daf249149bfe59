//! The shape of `src/`, checked on the source text:
//!
//! * **Layers.** The top-level modules form layers, and a module may use only
//!   the modules of the layers before its own ([`LAYERS`]): the error type at
//!   the bottom, the JavaScript bindings at the top. A reference is a
//!   `crate::module` path or a `super::` path that leaves its top-level module
//!   (comments and strings do not count). Modules of one layer do not use each
//!   other, and nothing may name an item of the crate root (`crate::Cloth`):
//!   code names the module an item lives in.
//! * **No cycle** between top-level modules (implied by the layers, and
//!   checked on its own so that a wrong layer table cannot hide one).
//! * **JavaScript stays in `src/wasm/`:** no other file mentions `JsValue`,
//!   `js_sys`, `web_sys` or `wasm_bindgen`, even in a comment.
//! * **Short functions:** no `fn` body under `src/` is longer than
//!   [`MAX_FN_LINES`] lines.
//!
//! Each failure names the file and line. The checks themselves are tested at
//! the bottom on made-up sources, so each can be seen to fail.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, bottom first. A module may use the modules of earlier layers
/// only; the modules of one layer are independent of each other.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["memory"],
    &["params"],
    &["model"],
    &["solver"],
    &["kinds"],
    &["contacts"],
    &["cloth"],
    &["raster", "experiments"],
    &["wasm"],
];

/// The names only `src/wasm/` may mention.
const JAVASCRIPT_NAMES: &[&str] = &["JsValue", "js_sys", "web_sys", "wasm_bindgen"];

/// Most lines a function body may have, from its opening brace to its
/// closing one.
const MAX_FN_LINES: usize = 80;

/// One source file: its path under `src/` (`cloth/step.rs`) and its text.
struct Source {
    path: String,
    text: String,
}

/// Every `.rs` file under `src/`, sorted by path.
fn sources() -> Vec<Source> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<Source>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).unwrap();
                out.push(Source {
                    path: relative.to_string_lossy().replace('\\', "/"),
                    text: fs::read_to_string(&path).unwrap(),
                });
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    assert!(out.len() > 20, "found only {} files under src/", out.len());
    out
}

/// `text` with every comment, string and character literal blanked out
/// (each of their characters but line breaks becomes a space), so that what
/// is left is code, line for line.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // blanks chars[from..to], keeping line breaks
    let blank = |out: &mut String, from: usize, to: usize| {
        for &c in &chars[from..to.min(chars.len())] {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = (i..chars.len())
                .find(|&k| chars[k] == '\n')
                .unwrap_or(chars.len());
            blank(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            let (mut depth, mut k) = (0, i);
            loop {
                if k + 1 >= chars.len() {
                    k = chars.len();
                    break;
                }
                if chars[k] == '/' && chars[k + 1] == '*' {
                    depth += 1;
                    k += 2;
                } else if chars[k] == '*' && chars[k + 1] == '/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            blank(&mut out, i, k);
            i = k;
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && !ident_char(prev(&chars, i))
        {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let closing: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let body = i + 2 + hashes;
            let rest: String = chars[body..].iter().collect();
            let end = rest.find(&closing).map_or(chars.len(), |at| {
                body + rest[..at].chars().count() + closing.len()
            });
            blank(&mut out, i, end);
            i = end;
        } else if c == '"' {
            let mut k = i + 1;
            while k < chars.len() && chars[k] != '"' {
                k += if chars[k] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, k + 1);
            i = k + 1;
        } else if c == '\'' {
            // a character literal ('x', '\n', '\u{1F600}') rather than a lifetime
            let literal = match next {
                Some('\\') => (i + 2..chars.len()).find(|&k| chars[k] == '\''),
                Some(_) if chars.get(i + 2) == Some(&'\'') => Some(i + 2),
                _ => None,
            };
            match literal {
                Some(end) => {
                    blank(&mut out, i, end + 1);
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev(chars: &[char], i: usize) -> char {
    if i == 0 {
        ' '
    } else {
        chars[i - 1]
    }
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The module path of a file under `src/`: `cloth/step.rs` is `[cloth,
/// step]`, `cloth/mod.rs` is `[cloth]`, `lib.rs` is `[]`.
fn module_path(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// A reference from one place of the source to a top-level module (or, for
/// `crate::Name` with `Name` no module, to an item of the crate root).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Reference {
    /// 1-based line.
    line: usize,
    /// The top-level module the file belongs to.
    from: String,
    /// The top-level name it reaches: a module, or a root item.
    to: String,
}

/// The identifier starting at byte `at` of `code`, if any.
fn ident_at(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let end = rest.find(|c: char| !ident_char(c)).unwrap_or(rest.len());
    &rest[..end]
}

/// The first path segments of a `{a, b::c, d as e}` group starting at byte
/// `at` (the `{`) of `code`.
fn group_heads(code: &str, at: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let (mut depth, mut expect_head) = (0, true);
    for (k, c) in code[at..].char_indices() {
        match c {
            '{' => {
                depth += 1;
                expect_head = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expect_head = true,
            c if expect_head && ident_char(c) => {
                heads.push(ident_at(code, at + k).to_string());
                expect_head = false;
            }
            _ => {}
        }
    }
    heads
}

/// The references of the file at `path` (under `src/`) with text `text`:
/// every `crate::` path, and every `super::` path, resolved from the module
/// it stands in (inline `mod name { ... }` blocks included).
fn references(path: &str, text: &str) -> Vec<Reference> {
    let code = code_only(text);
    let file_module = module_path(path);
    let Some(from) = file_module.first().cloned() else {
        return Vec::new(); // the crate root declares the modules
    };
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    // the inline modules open at each point: (name, brace depth inside it)
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let c = bytes[i];
        let starts_word = i == 0 || !ident_char(bytes[i - 1] as char);
        if c == b'{' {
            depth += 1;
        } else if c == b'}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
        } else if starts_word && code[i..].starts_with("mod ") {
            let name = ident_at(&code, i + 4);
            let after = code[i + 4 + name.len()..].trim_start();
            if after.starts_with('{') {
                inline.push((name.to_string(), depth + 1));
            }
        } else if starts_word
            && (code[i..].starts_with("crate::") || code[i..].starts_with("super::"))
        {
            // where the path starts: the root for `crate`, a parent for each `super`
            let mut module: Vec<String> = Vec::new();
            let mut at = i;
            if code[at..].starts_with("crate::") {
                at += "crate::".len();
            } else {
                module.extend(file_module.iter().cloned());
                module.extend(inline.iter().map(|(name, _)| name.clone()));
                while code[at..].starts_with("super::") {
                    module.pop();
                    at += "super::".len();
                }
            }
            let heads = if code[at..].starts_with('{') {
                group_heads(&code, at)
            } else {
                vec![ident_at(&code, at).to_string()]
            };
            for head in heads {
                out.push(Reference {
                    line: line_of(i),
                    from: from.clone(),
                    to: module.first().cloned().unwrap_or(head),
                });
            }
            i = at;
            continue;
        }
        i += 1;
    }
    out
}

/// The layer of top-level module `name`.
fn layer(layers: &[&[&str]], name: &str) -> Option<usize> {
    layers.iter().position(|layer| layer.contains(&name))
}

/// Every breach of the layers in `files` (path, text): references upwards,
/// sideways within a layer, to the crate root's items, and modules without a
/// layer. Each names the file and line.
fn layer_breaches(layers: &[&[&str]], files: &[(&str, &str)]) -> Vec<String> {
    let mut breaches = Vec::new();
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|(path, _)| module_path(path).first().cloned())
        .collect();
    for module in &modules {
        if layer(layers, module).is_none() {
            breaches.push(format!(
                "src/{module}: a top-level module with no layer in LAYERS"
            ));
        }
    }
    for (path, text) in files {
        for r in references(path, text) {
            if r.to == r.from || r.to.is_empty() {
                continue;
            }
            let place = format!("src/{path}:{}", r.line);
            if !modules.contains(&r.to) {
                breaches.push(format!(
                    "{place}: `{}` names `crate::{}`, an item of the crate root: name the module \
                     it lives in",
                    r.from, r.to
                ));
                continue;
            }
            let (Some(from), Some(to)) = (layer(layers, &r.from), layer(layers, &r.to)) else {
                continue;
            };
            if to >= from {
                let how = if to == from {
                    "its own layer"
                } else {
                    "a layer above"
                };
                breaches.push(format!(
                    "{place}: `{}` (layer {from}) uses `{}` (layer {to}, {how}); a module may \
                     use only the layers before its own",
                    r.from, r.to
                ));
            }
        }
    }
    breaches
}

/// The cycles between top-level modules of `files`, each as `a -> b -> a`.
fn module_cycles(files: &[(&str, &str)]) -> Vec<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in files {
        for r in references(path, text) {
            if r.to != r.from {
                graph.entry(r.from).or_default().insert(r.to);
            }
        }
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        cycles: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            cycles.push(cycle.join(" -> "));
            return;
        }
        if !done.insert(node.to_string()) {
            return;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, cycles);
        }
        stack.pop();
    }
    let mut cycles = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done, &mut cycles);
    }
    cycles
}

/// Every mention of a JavaScript name outside `src/wasm/`, with its place.
fn javascript_outside_wasm(files: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        if path.starts_with("wasm/") {
            continue;
        }
        for (k, line) in text.lines().enumerate() {
            for name in JAVASCRIPT_NAMES {
                let mentioned = line.match_indices(name).any(|(at, _)| {
                    let before = line[..at].chars().next_back().unwrap_or(' ');
                    let after = line[at + name.len()..].chars().next().unwrap_or(' ');
                    !ident_char(before) && !ident_char(after)
                });
                if mentioned {
                    found.push(format!(
                        "src/{path}:{}: mentions `{name}`, which only src/wasm/ may",
                        k + 1
                    ));
                }
            }
        }
    }
    found
}

/// Every function of `text` whose body (opening brace to closing brace) is
/// longer than `most` lines, as `(line of the fn, its name, body lines)`.
fn long_functions(text: &str, most: usize) -> Vec<(usize, String, usize)> {
    let code = code_only(text);
    let bytes = code.as_bytes();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut long = Vec::new();
    let mut i = 0;
    while let Some(found) = code[i..].find("fn ") {
        let at = i + found;
        i = at + 3;
        if at > 0 && ident_char(bytes[at - 1] as char) {
            continue;
        }
        let name = ident_at(&code, at + 3).to_string();
        if name.is_empty() {
            continue; // `fn(` types
        }
        // the body opens at the first `{` outside the signature's brackets;
        // a `;` first means a declaration without a body
        let mut nesting = 0i32;
        let mut open = None;
        for (k, c) in code[at..].char_indices() {
            match c {
                '(' | '[' | '<' => nesting += 1,
                ')' | ']' => nesting -= 1,
                '>' if !code[at..at + k].ends_with('-') => nesting -= 1,
                ';' if nesting <= 0 => break,
                '{' if nesting <= 0 => {
                    open = Some(at + k);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut depth = 0;
        let mut close = open;
        for (k, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let lines = line_of(close) - line_of(open) + 1;
        if lines > most {
            long.push((line_of(at), name, lines));
        }
    }
    long
}

fn report(what: &str, problems: &[String]) {
    assert!(problems.is_empty(), "{what}:\n{}", problems.join("\n"));
}

fn as_pairs(sources: &[Source]) -> Vec<(&str, &str)> {
    sources
        .iter()
        .map(|s| (s.path.as_str(), s.text.as_str()))
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_before_its_own() {
    let sources = sources();
    report("layers", &layer_breaches(LAYERS, &as_pairs(&sources)));
}

#[test]
fn no_cycle_between_top_level_modules() {
    let sources = sources();
    report("cycles", &module_cycles(&as_pairs(&sources)));
}

#[test]
fn only_src_wasm_sees_javascript() {
    let sources = sources();
    report(
        "JavaScript outside src/wasm/",
        &javascript_outside_wasm(&as_pairs(&sources)),
    );
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let mut problems = Vec::new();
    for source in sources() {
        for (line, name, lines) in long_functions(&source.text, MAX_FN_LINES) {
            problems.push(format!(
                "src/{}:{line}: fn {name} has a body of {lines} lines, at most {MAX_FN_LINES}",
                source.path
            ));
        }
    }
    report("long functions", &problems);
}

#[test]
fn the_layer_table_names_every_module_of_src_once() {
    let sources = sources();
    let modules: BTreeSet<String> = sources
        .iter()
        .filter_map(|s| module_path(&s.path).first().cloned())
        .collect();
    let listed: Vec<&str> = LAYERS
        .iter()
        .flat_map(|layer| layer.iter().copied())
        .collect();
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(
        listed.len(),
        unique.len(),
        "a module listed twice: {listed:?}"
    );
    let listed: BTreeSet<String> = unique.into_iter().map(String::from).collect();
    assert_eq!(listed, modules, "LAYERS against the modules of src/");
}

// ----- the checks can fail: each on a made-up source ------------------------

const TOY_LAYERS: &[&[&str]] = &[&["base"], &["left", "right"], &["top"]];

#[test]
fn a_use_of_a_higher_layer_is_caught_with_its_place() {
    let files = [
        ("base.rs", "pub fn f() {}\n"),
        ("left/mod.rs", "mod inner;\nuse crate::base::f;\n"),
        (
            "left/inner.rs",
            "// crate::top in a comment does not count\nuse crate::top::g;\n",
        ),
        ("right.rs", "pub fn h() { let s = \"crate::top\"; }\n"),
        ("top.rs", "use crate::{base, left::inner};\npub fn g() {}\n"),
    ];
    let breaches = layer_breaches(TOY_LAYERS, &files);
    assert_eq!(breaches.len(), 1, "{breaches:?}");
    assert!(
        breaches[0].starts_with("src/left/inner.rs:2: `left` (layer 1) uses `top` (layer 2"),
        "{}",
        breaches[0]
    );
}

#[test]
fn a_use_within_one_layer_a_root_item_and_an_unlisted_module_are_caught() {
    let files = [
        ("base.rs", "use super::left;\n"),
        ("left.rs", "fn f() { crate::right::h(); }\n"),
        ("right.rs", "use crate::Thing;\n"),
        ("stray.rs", "\n"),
    ];
    let breaches = layer_breaches(TOY_LAYERS, &files);
    let text = breaches.join("\n");
    assert!(
        text.contains("src/stray: a top-level module with no layer"),
        "{text}"
    );
    assert!(
        text.contains("src/base.rs:1: `base` (layer 0) uses `left` (layer 1, a layer above)"),
        "{text}"
    );
    assert!(
        text.contains("src/left.rs:1: `left` (layer 1) uses `right` (layer 1, its own layer)"),
        "{text}"
    );
    assert!(
        text.contains("src/right.rs:1: `right` names `crate::Thing`"),
        "{text}"
    );
    assert_eq!(breaches.len(), 4, "{text}");
}

#[test]
fn super_paths_resolve_from_inline_modules() {
    let text =
        "mod tests {\n    use super::*;\n    use super::super::top::g;\n}\nuse super::base;\n";
    let found = references("left/inner.rs", text);
    let to: Vec<(usize, &str)> = found.iter().map(|r| (r.line, r.to.as_str())).collect();
    // `super` in `tests` is `left::inner`, twice is `left`; in the file it is `left`
    assert_eq!(to, vec![(2, "left"), (3, "left"), (5, "left")]);
    let found = references(
        "left/mod.rs",
        "use super::base::f;\nmod t { use super::super::top; }\n",
    );
    let to: Vec<&str> = found.iter().map(|r| r.to.as_str()).collect();
    assert_eq!(to, vec!["base", "top"]);
}

#[test]
fn a_cycle_is_caught() {
    let files = [
        ("a.rs", "use crate::b::x;\n"),
        ("b/mod.rs", "mod c;\n"),
        ("b/c.rs", "fn f() { crate::a::y(); }\n"),
    ];
    assert_eq!(module_cycles(&files), vec!["a -> b -> a".to_string()]);
    assert!(module_cycles(&files[1..]).is_empty());
}

#[test]
fn javascript_names_outside_wasm_are_caught() {
    let files = [
        (
            "wasm/mod.rs",
            "use wasm_bindgen::prelude::*;\nfn f(v: JsValue) {}\n",
        ),
        ("raster.rs", "/// A JsValue never gets here.\nfn g() {}\n"),
        (
            "cloth.rs",
            "fn js_system() {} // `js_sys_like` is another name\n",
        ),
    ];
    let found = javascript_outside_wasm(&files);
    assert_eq!(
        found,
        vec!["src/raster.rs:1: mentions `JsValue`, which only src/wasm/ may"]
    );
}

#[test]
fn long_functions_are_caught_and_strings_and_declarations_do_not_count() {
    let line = "    let x = 1;\n";
    // bodies of 80 and 81 lines, braces included
    let short = format!("fn short() {{\n{}}}\n", line.repeat(78));
    let long = format!("fn long() {{\n{}}}\n", line.repeat(79));
    let tricky = "trait T { fn declared(&self) -> u32; }\n\
                  fn strings() -> &'static str { \"}}}{{{\" }\n\
                  fn raw() -> &'static str { r#\"fn fake() { \"# }\n";
    let text = format!("{tricky}{short}{long}");
    assert_eq!(
        long_functions(&text, 80),
        vec![(84, "long".to_string(), 81)]
    );
    assert!(long_functions(&long, 81).is_empty());
    assert_eq!(
        long_functions(&short, 79),
        vec![(1, "short".to_string(), 80)]
    );
}
