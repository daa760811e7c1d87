//! A crate's integration tests are one binary (`tests/main.rs`, `autotests = false`): one link
//! instead of one per file, the larger part of the test build's time (issue 28). The price is
//! that cargo no longer finds a new `tests/*.rs` file by itself; `check` notices one that
//! `main.rs` does not declare (`#[path]`-included by each crate's `tests/main.rs`).

use std::path::Path;

/// Panics naming every `*.rs` file of `dir` (but `main.rs`) that `main_rs` does not declare as
/// `mod NAME;`, and every declared module that has no file.
pub fn check(dir: &str, main_rs: &str) {
    let declared: Vec<&str> =
        main_rs.lines().filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';')).collect();
    let mut files: Vec<String> = std::fs::read_dir(Path::new(dir))
        .expect("the tests directory")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rs")?;
            (stem != "main").then(|| stem.to_string())
        })
        .collect();
    files.sort();
    let missing: Vec<String> =
        files.iter().filter(|f| !declared.contains(&f.as_str())).map(|f| format!("tests/{f}.rs")).collect();
    assert!(
        missing.is_empty(),
        "{}: never compiled: declare each as `mod NAME;` in tests/main.rs",
        missing.join(", ")
    );
    let stale: Vec<&&str> =
        declared.iter().filter(|m| **m != "one_binary" && !files.iter().any(|f| f == *m)).collect();
    assert!(stale.is_empty(), "tests/main.rs declares modules without a file: {stale:?}");
}
