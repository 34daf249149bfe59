//! The browser tests' page must stay within what the test runner can serve.
//!
//! `wasm-bindgen-test-runner` serves the test page with tiny_http, whose pool
//! starts with four threads and can leave a fifth parallel connection waiting
//! until the browser closes an idle one, minutes later: the whole run then
//! hangs and times out. Every JavaScript module a test file binds is one more
//! parallel fetch, so each wasm test file binds at most one module file
//! (`tests/js/*.js`) and no inline JavaScript blocks, which become a module each.

use std::fs;
use std::path::Path;

#[test]
fn each_wasm_test_file_binds_at_most_one_javascript_module() {
    let inline = concat!("inline", "_js");
    let module = concat!("module", " = \"");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut checked = 0;
    for entry in fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let source = fs::read_to_string(&path).unwrap_or_default();
        if path.extension().is_none_or(|e| e != "rs")
            || !source.contains(concat!("#[wasm_bindgen", "_test]"))
        {
            continue;
        }
        checked += 1;
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            !source.contains(inline),
            "{name} has an {inline} block: put its JavaScript in a module under tests/js/"
        );
        let mut modules: Vec<&str> = source
            .split(module)
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap())
            .collect();
        modules.sort_unstable();
        modules.dedup();
        assert!(
            modules.len() <= 1,
            "{name} binds {} JavaScript modules: {modules:?}",
            modules.len()
        );
        for module in modules {
            assert!(
                tests.parent().unwrap().join(&module[1..]).is_file(),
                "{name} binds {module}, which is not a file"
            );
        }
    }
    assert!(checked >= 2, "found only {checked} wasm test files");
}
