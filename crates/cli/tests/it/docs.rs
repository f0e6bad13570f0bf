//! The documentation's commands, run as written.
//!
//! Every fenced code block of the repository's Markdown (README.md and the other root `*.md`,
//! `docs/`, `crates/*/README.md`, `crates/bench/records/`) must name its language: an
//! untagged block is compiled as Rust by rustdoc wherever the file is included as crate docs.
//! Every shell block (`sh`, `bash`, `shell`, `console`) is run here as one `sh -e` script in a
//! fresh temporary directory that holds a copy of the shipped records at their path,
//! `crates/bench/records/` (so `crates/bench/records/*.json` works as written and nothing
//! writes into the repository), with a `PATH` of its own:
//!
//! * `aurum` is the CLI this test was built with;
//! * `cargo` understands only `cargo run --release [-p aurum-cli | --bin aurum] [--] ARGS`,
//!   which it runs as `aurum ARGS` (what cargo would build and run);
//! * a few read-only text tools (`cat`, `ls`, `head`, `tail`, `grep`, `cut`, `tr`, `cmp`,
//!   `wc`, `rm`, `mkdir`, `sed`, `sort`) and the shell's builtins.
//!
//! Anything else is "not found", so a block that needs another program, more than a minute,
//! or the repository itself cannot pass by accident: it must say so, on the line directly
//! above its opening fence, as `<!-- docs-test: skip: REASON -->`, and is then only listed.
//! A documented command that fails, or a skip without a reason, fails this test.
//!
//! It also checks that the README's set-up commands (its first shell block: the main job and
//! the test command) are run literally by CI (`.ci/run`), and that every Markdown file with a
//! Rust block is compiled as doctests somewhere (`#[doc = include_str!(…)]`).
//!
//! It checks documentation, not a platform: the aarch64 runs under qemu skip it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The shipped `aurum bench` records, relative to the root: documented commands read them
/// by this path.
const RECORDS: &str = "crates/bench/records";

/// The Markdown files whose blocks are checked, relative to the root, sorted.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() && depth > 0 {
                walk(&path, out, depth - 1);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut files = Vec::new();
    walk(&root, &mut files, 0);
    walk(&root.join("docs"), &mut files, 4);
    walk(&root.join(RECORDS), &mut files, 4);
    for dir in ["crates", "tools", "benches", "tests", "fuzz", "oracles"] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            for entry in entries {
                let readme = entry.unwrap().path().join("README.md");
                if readme.is_file() {
                    files.push(readme);
                }
            }
        }
        let readme = root.join(dir).join("README.md");
        if readme.is_file() {
            files.push(readme);
        }
    }
    let mut files: Vec<PathBuf> = files
        .into_iter()
        .map(|p| p.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    files.sort();
    files.dedup();
    files
}

/// A fenced code block.
#[derive(Debug)]
struct Block {
    file: PathBuf,
    /// 1-based line of the opening fence.
    line: usize,
    /// The info string's first word (`sh`, `rust`, …), empty when untagged.
    lang: String,
    /// The text between the fences, each line with the fence's indentation removed.
    body: String,
    /// `Some(reason)` when the line above the fence is `<!-- docs-test: skip: REASON -->`
    /// (an empty reason is kept as `Some("")` and refused).
    skip: Option<String>,
}

const SKIP_PREFIX: &str = "<!-- docs-test: skip:";

/// The fenced blocks of a Markdown text (backtick fences of three or more, any indentation).
fn blocks(file: &Path, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let indent = lines[i].len() - trimmed.len();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        if ticks < 3 {
            i += 1;
            continue;
        }
        let info = trimmed[ticks..].trim();
        let lang = info
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_string();
        let skip = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim())
            .filter(|l| l.starts_with(SKIP_PREFIX))
            .map(|l| {
                l[SKIP_PREFIX.len()..]
                    .trim_end_matches("-->")
                    .trim()
                    .to_string()
            });
        let start = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() {
            let t = lines[i].trim_start();
            let closing = t.chars().take_while(|&c| c == '`').count();
            if closing >= ticks && t[closing..].trim().is_empty() {
                break;
            }
            let line = lines[i];
            let cut = line.len() - line.trim_start().len();
            body.push_str(&line[cut.min(indent)..]);
            body.push('\n');
            i += 1;
        }
        out.push(Block {
            file: file.to_path_buf(),
            line: start + 1,
            lang,
            body,
            skip,
        });
        i += 1;
    }
    out
}

fn all_blocks() -> Vec<Block> {
    let root = root();
    markdown_files()
        .iter()
        .flat_map(|f| blocks(f, &std::fs::read_to_string(root.join(f)).unwrap()))
        .collect()
}

fn is_shell(lang: &str) -> bool {
    matches!(lang, "sh" | "bash" | "shell" | "console")
}

/// Copies a directory tree (the bench records: a few hundred KiB).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A directory of the programs a documented block may call.
fn tool_dir(base: &Path) -> PathBuf {
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = env!("CARGO_BIN_EXE_aurum");
    let write_script = |name: &str, text: String| {
        let path = bin.join(name);
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    };
    write_script("aurum", format!("#!/bin/sh\nexec '{exe}' \"$@\"\n"));
    write_script(
        "cargo",
        "#!/bin/sh\n\
         # The documentation's `cargo run --release -- ARGS`: the CLI cargo would build and run.\n\
         [ \"$1\" = run ] || { echo \"docs test: only 'cargo run --release' of the CLI runs here: $*\" >&2; exit 127; }\n\
         shift\n\
         release=no\n\
         while [ $# -gt 0 ]; do\n\
           case \"$1\" in\n\
             --release|-r) release=yes; shift ;;\n\
             -q|--quiet) shift ;;\n\
             -p|--package) [ \"$2\" = aurum-cli ] || { echo \"docs test: cargo run of package '$2' does not run here\" >&2; exit 127; }; shift 2 ;;\n\
             --bin) [ \"$2\" = aurum ] || { echo \"docs test: cargo run of binary '$2' does not run here\" >&2; exit 127; }; shift 2 ;;\n\
             --) shift; break ;;\n\
             -*) echo \"docs test: cargo run option '$1' is not understood here\" >&2; exit 127 ;;\n\
             *) break ;;\n\
           esac\n\
         done\n\
         [ $release = yes ] || { echo 'docs test: the documentation runs the CLI with --release' >&2; exit 127; }\n\
         exec aurum \"$@\"\n"
            .to_string(),
    );
    #[cfg(unix)]
    for tool in [
        "cat", "ls", "head", "tail", "grep", "cut", "tr", "cmp", "wc", "rm", "mkdir", "sed", "sort",
    ] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists());
        if let Some(found) = found {
            std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
        }
    }
    bin
}

/// Runs a block as a script; `Err` with what went wrong.
fn run_block(block: &Block, bin: &Path, work: &Path) -> Result<Duration, String> {
    const LIMIT: Duration = Duration::from_secs(120);
    std::fs::create_dir_all(work).unwrap();
    copy_dir(&root().join(RECORDS), &work.join(RECORDS));
    let script = format!("set -e\n{}", block.body);
    let start = Instant::now();
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(&script)
        .current_dir(work)
        .env_clear()
        .env("PATH", bin)
        .env("HOME", work)
        .env("TMPDIR", work)
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the pipes on threads so a talkative command cannot block on a full pipe.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut out_pipe, &mut s).ok();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut err_pipe, &mut s).ok();
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let out = String::from_utf8_lossy(&out.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
    let tail = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    };
    match status {
        Some(s) if s.success() => Ok(elapsed),
        Some(s) => Err(format!(
            "exited with {s}\n--- stdout (end)\n{}\n--- stderr (end)\n{}",
            tail(&out),
            tail(&err)
        )),
        None => Err(format!(
            "ran past {} s: make it smaller, or mark it `{SKIP_PREFIX} REASON -->`",
            LIMIT.as_secs()
        )),
    }
}

#[test]
fn every_code_block_names_its_language() {
    let untagged: Vec<String> = all_blocks()
        .iter()
        .filter(|b| b.lang.is_empty())
        .map(|b| format!("{}:{}", b.file.display(), b.line))
        .collect();
    assert!(
        untagged.is_empty(),
        "code blocks without a language (rustdoc compiles them as Rust; tag them sh, rust, \
         toml, text …):\n{}",
        untagged.join("\n")
    );
}

#[test]
fn every_skip_marker_gives_a_reason_and_marks_a_shell_block() {
    let root = root();
    let mut bad = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        let blocks = blocks(&file, &text);
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if !line.trim().starts_with(SKIP_PREFIX) {
                continue;
            }
            // The block whose opening fence is the next non-empty line.
            let next = (n + 1..lines.len()).find(|&k| !lines[k].trim().is_empty());
            let marked = next.and_then(|k| blocks.iter().find(|b| b.line == k + 1));
            match marked {
                Some(b) if is_shell(&b.lang) && !b.skip.as_ref().unwrap().is_empty() => {}
                _ => bad.push(format!("{}:{}", file.display(), n + 1)),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "`{SKIP_PREFIX} REASON -->` must sit directly above a shell block and give a reason:\n{}",
        bad.join("\n")
    );
}

#[test]
fn documented_commands_run() {
    let blocks: Vec<Block> = all_blocks()
        .into_iter()
        .filter(|b| is_shell(&b.lang))
        .collect();
    let base = std::env::temp_dir().join(format!("aurum-docs-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let bin = tool_dir(&base);
    let mut report = String::new();
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for (n, block) in blocks.iter().enumerate() {
        let place = format!("{}:{}", block.file.display(), block.line);
        if let Some(reason) = &block.skip {
            skipped += 1;
            writeln!(report, "skipped  {place}: {reason}").unwrap();
            continue;
        }
        ran += 1;
        match run_block(block, &bin, &base.join(format!("block-{n}"))) {
            Ok(t) => writeln!(report, "ran      {place} in {:.2} s", t.as_secs_f64()).unwrap(),
            Err(e) => {
                writeln!(report, "FAILED   {place}").unwrap();
                failures.push(format!("{place}:\n{}\n{e}", block.body.trim_end()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    println!("{report}{ran} shell blocks run, {skipped} skipped");
    assert!(
        failures.is_empty(),
        "documented commands that fail (fix the docs or the command; a block that cannot run \
         here needs `{SKIP_PREFIX} REASON -->` above it):\n\n{}",
        failures.join("\n\n")
    );
    assert!(ran > 0, "no shell block was run: the parser found none");
}

/// The README's set-up commands: the lines of its first shell block, comments removed.
fn readme_setup_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let first = blocks(Path::new("README.md"), &readme)
        .into_iter()
        .find(|b| is_shell(&b.lang))
        .expect("the README has a shell block with its set-up commands");
    first
        .body
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn ci_runs_the_readmes_setup_commands_literally() {
    let commands = readme_setup_commands();
    assert!(
        commands.iter().any(|c| c == "cargo run --release")
            && commands.iter().any(|c| c == "cargo test --workspace"),
        "the README's first shell block should hold the main job and the test command: {commands:?}"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let ci_lines: Vec<&str> = ci.lines().map(str::trim).collect();
    for command in &commands {
        assert!(
            ci_lines.iter().any(|l| l == command),
            "`{command}` (the README's set-up block) is not a line of .ci/run"
        );
    }
}

#[test]
fn every_markdown_file_with_rust_is_compiled_as_doctests() {
    let root = root();
    let mut sources = String::new();
    for dir in ["tests/src", "crates"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    sources.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
    }
    let mut missing = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        if !blocks(&file, &text).iter().any(|b| b.lang == "rust") {
            continue;
        }
        // A crate's README is included as `../README.md` from its src/lib.rs; a root or
        // docs/ file from tests/src/lib.rs as `../../<path>`.
        let included = if file.starts_with("crates") && file.ends_with("README.md") {
            let lib = root.join(file.parent().unwrap()).join("src/lib.rs");
            std::fs::read_to_string(lib)
                .unwrap_or_default()
                .contains("include_str!(\"../README.md\")")
        } else {
            sources.contains(&format!("include_str!(\"../../{}\")", file.display()))
        };
        if !included {
            missing.push(file.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "Markdown with Rust blocks that no crate compiles as doctests \
         (`#[doc = include_str!(…)]`):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_block_parser_finds_tags_skips_and_bodies() {
    let text = "x\n```sh\naurum info\n```\n\n<!-- docs-test: skip: slow -->\n```sh\nscripts/x.sh\n```\n\
                ```\nuntagged\n```\n  ````rust,no_run\n  let a = 1;\n  ````\n";
    let b = blocks(Path::new("t.md"), text);
    assert_eq!(b.len(), 4, "{b:?}");
    assert_eq!(
        (b[0].lang.as_str(), b[0].line, b[0].skip.as_deref()),
        ("sh", 2, None)
    );
    assert_eq!(b[0].body, "aurum info\n");
    assert_eq!(b[1].skip.as_deref(), Some("slow"));
    assert_eq!(b[2].lang, "");
    assert_eq!(
        (b[3].lang.as_str(), b[3].body.as_str()),
        ("rust", "let a = 1;\n")
    );
}
