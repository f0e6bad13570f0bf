//! The repository's module graph has no circle: no source file imports, directly or around a
//! loop, from a file that imports back from it.
//!
//! Every package's `src/` is read as text (`scripts/module-circles.sh` runs this test and
//! prints the graph's size). A file's module path comes from where it lies (`src/a/b.rs` and
//! `src/a/b/mod.rs` are `crate::a::b`); its imports are the paths of its `use` items and every
//! `crate::…`, `super::…` and `self::…` path in its code. A path is resolved to the file that
//! defines the named item, following `pub use` re-exports (so a crate root that re-exports a
//! type is not where the type lives); a path that names a module is an import of that module's
//! file. `mod` declarations and re-exports (`pub use`: a crate root or `mod.rs` making its
//! children's names visible) are not imports, and inline modules (`mod tests { … }`) belong to
//! their file. Paths into other crates are not followed: the crate graph is Cargo's, and Cargo
//! already refuses a cycle there.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The repository root (this package lives in `tests/`).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Every package source root of the repository: `<package>/src` with a `lib.rs` or `main.rs`.
fn source_roots(root: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for parent in ["crates", "tools", "oracles", "fuzz"] {
        let Ok(entries) = fs::read_dir(root.join(parent)) else {
            continue;
        };
        for entry in entries.flatten() {
            let src = entry.path().join("src");
            if src.join("lib.rs").is_file() || src.join("main.rs").is_file() {
                roots.push(src);
            }
        }
    }
    for package in ["benches", "tests"] {
        let src = root.join(package).join("src");
        if src.join("lib.rs").is_file() {
            roots.push(src);
        }
    }
    roots.sort();
    roots
}

// ---- lexing ----------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// The identifiers and punctuation of Rust source; comments, string, character and number
/// literals and lifetimes are dropped.
fn lex(source: &str) -> Vec<Token> {
    let s: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && s.get(i + 1) == Some(&'/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && s.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&s, i) {
            i = end;
        } else if c == '"' || ((c == 'b' || c == 'c') && s.get(i + 1) == Some(&'"')) {
            i += if c == '"' { 1 } else { 2 };
            while i < s.len() && s[i] != '"' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' || (c == 'b' && s.get(i + 1) == Some(&'\'')) {
            if c == 'b' {
                i += 1;
            }
            // A character literal ('x', '\n', '\u{…}') or a lifetime ('a).
            if s.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if s.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let mut ident: String = s[start..i].iter().collect();
            // Raw identifiers: r#type.
            if ident == "r" && s.get(i) == Some(&'#') {
                let start = i + 1;
                i += 1;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
                ident = s[start..i].iter().collect();
            }
            tokens.push(Token::Ident(ident));
        } else if c == ':' && s.get(i + 1) == Some(&':') {
            tokens.push(Token::PathSep);
            i += 2;
        } else {
            tokens.push(Token::Punct(c));
            i += 1;
        }
    }
    tokens
}

/// Where a raw string literal starting at `i` (`r"…"`, `r#"…"#`, `br"…"`, `cr#"…"#`) ends.
fn raw_string_end(s: &[char], i: usize) -> Option<usize> {
    if i > 0 && is_ident_char(s, i - 1) {
        return None;
    }
    let mut j = i;
    if matches!(s.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while s.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if s.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < s.len() {
        if s[j] == '"' && (1..=hashes).all(|k| s.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(s.len())
}

fn is_ident_char(s: &[char], i: usize) -> bool {
    s.get(i).is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

// ---- one file ---------------------------------------------------------------------------

/// What a file says about itself and its imports, with module paths relative to its crate.
#[derive(Default, Debug)]
struct FileFacts {
    /// Names of the items the file defines (at any depth: a path can only name the
    /// module-level ones, so the others never match).
    defines: BTreeSet<String>,
    /// Inline modules, as paths relative to the file's module.
    inline_modules: BTreeSet<Vec<String>>,
    /// `pub use` re-exports: the visible name and the path it stands for, written from the
    /// module it sits in (relative to the file's module: the inline modules it is nested in).
    reexports: Vec<(String, Vec<String>, Vec<String>)>,
    /// Every imported path: the module (relative to the file's) it is written in, the path
    /// as written (its first segment `crate`, `super`, `self` or a name), and whether it is
    /// only a re-export (`pub use`: it makes a name visible here, the file's code does not
    /// depend on it).
    imports: Vec<(Vec<String>, Vec<String>, bool)>,
}

const ITEM_KEYWORDS: [&str; 9] = [
    "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
];

fn read_file(tokens: &[Token]) -> FileFacts {
    let mut facts = FileFacts::default();
    // The inline modules we are inside: (name, the brace depth at which its body opened).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let ident = |k: usize| match tokens.get(k) {
        Some(Token::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    while i < tokens.len() {
        let here: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
        match &tokens[i] {
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Token::Ident(word) if word == "use" => {
                let public = i > 0 && is_visibility_end(tokens, i);
                let mut paths = Vec::new();
                let end = parse_use_tree(tokens, i + 1, Vec::new(), &mut paths);
                for (path, alias) in paths {
                    if public && let Some(name) = alias {
                        facts.reexports.push((name, here.clone(), path.clone()));
                    }
                    facts.imports.push((here.clone(), path, public));
                }
                i = end;
            }
            Token::Ident(word) if word == "macro_rules" => {
                if let (Some(Token::Punct('!')), Some(name)) = (tokens.get(i + 1), ident(i + 2)) {
                    facts.defines.insert(name.to_string());
                }
                i += 1;
            }
            Token::Ident(word) if ITEM_KEYWORDS.contains(&word.as_str()) => {
                // `const fn f` defines `f`; `const NAME` defines `NAME`; `mod m {` opens an
                // inline module, `mod m;` declares a file module (not an import).
                if let Some(name) = ident(i + 1).filter(|n| !ITEM_KEYWORDS.contains(n)) {
                    facts.defines.insert(name.to_string());
                    if word == "mod" && tokens.get(i + 2) == Some(&Token::Punct('{')) {
                        let mut path = here.clone();
                        path.push(name.to_string());
                        facts.inline_modules.insert(path);
                        inline.push((name.to_string(), depth + 1));
                    }
                }
                i += 1;
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "super" | "self")
                    && tokens.get(i + 1) == Some(&Token::PathSep)
                    && !(i > 0 && tokens[i - 1] == Token::PathSep) =>
            {
                let mut path = vec![word.clone()];
                let mut k = i + 1;
                while tokens.get(k) == Some(&Token::PathSep) {
                    match ident(k + 1) {
                        Some(seg) => path.push(seg.to_string()),
                        None => break,
                    }
                    k += 2;
                }
                facts.imports.push((here, path, false));
                i = k;
            }
            _ => i += 1,
        }
    }
    facts
}

/// Whether the `use` at `i` is public beyond its module: `pub use` or `pub(crate) use`, …
fn is_visibility_end(tokens: &[Token], i: usize) -> bool {
    match &tokens[i - 1] {
        Token::Ident(w) => w == "pub",
        Token::Punct(')') => tokens[..i - 1]
            .iter()
            .rposition(|t| *t == Token::Punct('('))
            .is_some_and(|open| open > 0 && tokens[open - 1] == Token::Ident("pub".into())),
        _ => false,
    }
}

/// Parses a use tree from `i`, pushing each full path and the name it is visible under (None
/// for globs); returns the index after it.
fn parse_use_tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    if tokens.get(i) == Some(&Token::PathSep) {
        // `use ::std::…`: another crate.
        prefix.push("::".into());
        i += 1;
    }
    loop {
        match tokens.get(i) {
            Some(Token::Ident(seg)) if seg == "self" && !prefix.is_empty() => {
                let name = prefix.last().cloned();
                let (alias, next) = alias_after(tokens, i + 1);
                out.push((prefix.clone(), alias.or(name)));
                return skip_to_end(tokens, next);
            }
            Some(Token::Ident(seg)) => {
                prefix.push(seg.clone());
                if tokens.get(i + 1) == Some(&Token::PathSep) {
                    i += 2;
                } else {
                    let (alias, next) = alias_after(tokens, i + 1);
                    out.push((prefix.clone(), alias.or(Some(seg.clone()))));
                    return skip_to_end(tokens, next);
                }
            }
            Some(Token::Punct('*')) => {
                let mut path = prefix.clone();
                path.push("*".into());
                out.push((path, None));
                return skip_to_end(tokens, i + 1);
            }
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) => return skip_to_end(tokens, i + 1),
                        Some(Token::Punct(',')) => i += 1,
                        None => return i,
                        Some(_) => i = parse_use_tree(tokens, i, prefix.clone(), out),
                    }
                }
            }
            _ => return i + 1,
        }
    }
}

fn alias_after(tokens: &[Token], i: usize) -> (Option<String>, usize) {
    if tokens.get(i) == Some(&Token::Ident("as".into()))
        && let Some(Token::Ident(name)) = tokens.get(i + 1)
    {
        return (Some(name.clone()), i + 2);
    }
    (None, i)
}

/// After a use tree: past a `;` that ends the item, stopping before `,` or `}` of a group.
fn skip_to_end(tokens: &[Token], i: usize) -> usize {
    match tokens.get(i) {
        Some(Token::Punct(';')) => i + 1,
        _ => i,
    }
}

// ---- one crate ---------------------------------------------------------------------------

struct Crate {
    files: Vec<PathBuf>,
    /// Module path (from the crate root) of each file.
    modules: Vec<Vec<String>>,
    facts: Vec<FileFacts>,
    /// Module path → file index, file modules and inline modules.
    by_module: BTreeMap<Vec<String>, usize>,
}

fn read_crate(src: &Path) -> Crate {
    let mut files = Vec::new();
    collect_rs(src, &mut files);
    files.sort();
    let root_file = if src.join("lib.rs").is_file() {
        "lib.rs"
    } else {
        "main.rs"
    };
    // A package with both lib.rs and main.rs: the binary is a crate of its own that uses the
    // library by name; leave it out. Likewise src/bin/.
    files.retain(|f| {
        let rel = f.strip_prefix(src).expect("under src");
        let top = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        !(top.as_deref() == Some("bin") || (rel.as_os_str() == "main.rs" && root_file == "lib.rs"))
    });
    let modules: Vec<Vec<String>> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src).expect("under src");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let last = parts.pop().expect("a file name");
            if last != "mod.rs" && last != root_file {
                parts.push(last.trim_end_matches(".rs").to_string());
            }
            parts
        })
        .collect();
    let facts: Vec<FileFacts> = files
        .iter()
        .map(|f| read_file(&lex(&fs::read_to_string(f).expect("a readable source file"))))
        .collect();
    let mut by_module = BTreeMap::new();
    for (index, module) in modules.iter().enumerate() {
        by_module.insert(module.clone(), index);
    }
    for (index, fact) in facts.iter().enumerate() {
        for inline in &fact.inline_modules {
            let mut path = modules[index].clone();
            path.extend(inline.iter().cloned());
            by_module.entry(path).or_insert(index);
        }
    }
    Crate {
        files,
        modules,
        facts,
        by_module,
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

impl Crate {
    /// `path` as written in module `module` made absolute (from the crate root), or None for a
    /// path into another crate.
    fn absolute(&self, module: &[String], path: &[String]) -> Option<Vec<String>> {
        let mut base = module.to_vec();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &path[1..];
            }
            Some("self") => rest = &path[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            Some("::") | None => return None,
            Some(first) => {
                // A relative path: a child module of `module`, or an item of another crate.
                let mut child = module.to_vec();
                child.push(first.to_string());
                if !self.by_module.contains_key(&child) {
                    return None;
                }
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines what the absolute `path` names, following re-exports.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let (prefix_len, file) = (0..=path.len())
            .rev()
            .find_map(|n| self.by_module.get(&path[..n]).map(|f| (n, *f)))?;
        let Some(name) = path.get(prefix_len) else {
            return Some(file);
        };
        if hops == 0 || self.facts[file].defines.contains(name) || name == "*" {
            return Some(file);
        }
        // The module path inside `file` the prefix names (inline modules included).
        let inside: Vec<String> = path[self.modules[file].len()..prefix_len].to_vec();
        let file_module = &self.modules[file];
        for (visible, written_in, target) in &self.facts[file].reexports {
            if visible == name && *written_in == inside {
                let mut module = file_module.clone();
                module.extend(inside.iter().cloned());
                if let Some(mut abs) = self.absolute(&module, target) {
                    abs.extend(path[prefix_len + 1..].iter().cloned());
                    return self.resolve(&abs, hops - 1).or(Some(file));
                }
            }
        }
        // Glob re-exports: `pub use child::*`.
        for (written_in, target, _) in &self.facts[file].imports {
            if target.last().map(String::as_str) == Some("*") && *written_in == inside {
                let mut module = file_module.clone();
                module.extend(inside.iter().cloned());
                if let Some(mut abs) = self.absolute(&module, &target[..target.len() - 1]) {
                    abs.extend(path[prefix_len..].iter().cloned());
                    if let Some(found) = self.resolve(&abs, hops - 1)
                        && found != file
                        && self.facts[found].defines.contains(name)
                    {
                        return Some(found);
                    }
                }
            }
        }
        Some(file)
    }

    /// Edges file → file, each with the names imported along it.
    fn edges(&self) -> BTreeMap<(usize, usize), BTreeSet<String>> {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
        for (from, fact) in self.facts.iter().enumerate() {
            for (written_in, path, reexport) in &fact.imports {
                if *reexport {
                    continue;
                }
                let mut module = self.modules[from].clone();
                module.extend(written_in.iter().cloned());
                let Some(abs) = self.absolute(&module, path) else {
                    continue;
                };
                let Some(to) = self.resolve(&abs, 8) else {
                    continue;
                };
                if to != from {
                    let name = path.last().cloned().unwrap_or_default();
                    edges.entry((from, to)).or_default().insert(name);
                }
            }
        }
        edges
    }
}

/// Strongly connected components with more than one file (Tarjan).
fn circles(n: usize, edges: &BTreeMap<(usize, usize), BTreeSet<String>>) -> Vec<Vec<usize>> {
    struct State {
        adj: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for k in 0..s.adj[v].len() {
            let w = s.adj[v][k];
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().expect("v is on the stack");
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort_unstable();
                s.out.push(component);
            }
        }
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges.keys() {
        adj[a].push(b);
    }
    let mut s = State {
        adj,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_module_imports_from_a_module_that_imports_back() {
    let root = repo_root();
    let mut report = Vec::new();
    let (mut files, mut edge_count) = (0, 0);
    for src in source_roots(&root) {
        let krate = read_crate(&src);
        let edges = krate.edges();
        files += krate.files.len();
        edge_count += edges.len();
        let name = |f: usize| {
            krate.files[f]
                .strip_prefix(&root)
                .unwrap_or(&krate.files[f])
                .display()
                .to_string()
        };
        for circle in circles(krate.files.len(), &edges) {
            let mut lines = vec![format!("a circle of {} files:", circle.len())];
            for &a in &circle {
                for &b in &circle {
                    if let Some(names) = edges.get(&(a, b)) {
                        let names: Vec<&str> = names.iter().map(String::as_str).collect();
                        lines.push(format!(
                            "  {} -> {}: {}",
                            name(a),
                            name(b),
                            names.join(", ")
                        ));
                    }
                }
            }
            report.push(lines.join("\n"));
        }
    }
    println!("module graph: {files} files, {edge_count} imports between files");
    assert!(
        files > 50,
        "found only {files} source files: is the repository layout read right?"
    );
    assert!(
        report.is_empty(),
        "{}\n{} circle(s)",
        report.join("\n"),
        report.len()
    );
}

#[test]
fn the_reader_finds_a_planted_circle_and_follows_reexports() {
    let dir = std::env::temp_dir().join(format!("aurum-module-graph-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("b")).unwrap();
    let write = |p: &str, s: &str| fs::write(src.join(p), s).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::Alpha;\n");
    // a → b::inner (through b's re-export of c::Gamma: a → c), c → crate::Alpha (a): a circle
    // a ↔ c; b only re-exports, and b::inner's `super::` edge points at b.
    write(
        "a.rs",
        "use crate::b::Gamma;\npub struct Alpha;\nfn f() { let _ = \"crate::d::X\"; }\n",
    );
    write("b/mod.rs", "mod inner;\npub use crate::c::Gamma;\n");
    write(
        "b/inner.rs",
        "use super::Gamma;\n#[cfg(test)]\nmod tests { use super::*; }\n",
    );
    write(
        "c.rs",
        "pub struct Gamma;\nfn g() -> crate::Alpha { crate::Alpha }\n",
    );
    let krate = read_crate(&src);
    let edges = krate.edges();
    let index = |p: &str| krate.files.iter().position(|f| f.ends_with(p)).unwrap();
    let found = circles(krate.files.len(), &edges);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(found, vec![vec![index("a.rs"), index("c.rs")]]);
    assert!(edges.contains_key(&(index("b/inner.rs"), index("c.rs"))));
    assert!(!edges.contains_key(&(index("a.rs"), index("b/mod.rs"))));
    // Re-exports are not imports: the crate root and b/mod.rs import nothing.
    assert!(
        edges
            .keys()
            .all(|&(from, _)| from != index("lib.rs") && from != index("b/mod.rs"))
    );
}
