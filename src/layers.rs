//! The crate's layers, and the tests that keep every import pointing down.
//!
//! | layer | modules | what |
//! |---:|---|---|
//! | 0 | `fsutil`, `progress`, `rng`, `tomlcfg` | files and atomic writes, progress bars, the seeded random source, config loading |
//! | 1 | `store` | run directories on object storage |
//! | 2 | `game` | the game interface (`State`), sides, the end-of-game rules, a game with history, perft, one 8x8 board's attacks |
//! | 3 | `rules`, `quasi_alice`, `mixed3d` | the games: Five Up and Raumschach on 5x5x5; 4D Quasi-Alice Chess; Mixed 3D Chess |
//! | 4 | `catalog`, `tablebase` | the games by name: what `--ruleset` and the configs accept; the 5x5x5 endgame tables |
//! | 5 | `engine` | alpha-beta search, the hand evaluation, NNUE inference (`engine::nnue`) |
//! | 6 | `nn` | planes, the policy index, the evaluator trait, the torch network |
//! | 7 | `mcts` | Monte Carlo tree search over an evaluator |
//! | 8 | `player` | the one interface of everything that plays, its spec parser, clocks, outside engines |
//! | 9 | `protocol` | the engine side of the text protocol |
//! | 10 | `eval` | the game runner, matches, tournaments, ratings, SPRT, game records |
//! | 11 | `selfplay` | lockstep self-play and its training records |
//! | 12 | `values` | piece-value estimation |
//! | 13 | `train` | the generation loop, the network and NNUE trainers, the training config |
//! | 14 | `serve` | the web page's HTTP API |
//! | 15 | `cli` (binary) | commands and flags |
//!
//! A module may name (`crate::X…`) only modules of a lower layer, and itself. Within a module,
//! the files (a file `a.rs` or a folder `a/` below the module's folder) must not import each
//! other in a circle. Both rules are checked by the tests below over the non-comment text of
//! every file in `src/`, test modules included; a failure names the file and line.

/// The layer of each top-level module of the library, lowest first.
pub const LAYERS: &[(&str, u32)] = &[
    ("fsutil", 0),
    ("progress", 0),
    ("rng", 0),
    ("tomlcfg", 0),
    ("store", 1),
    ("game", 2),
    ("rules", 3),
    ("quasi_alice", 3),
    ("mixed3d", 3),
    ("catalog", 4),
    ("tablebase", 4),
    ("engine", 5),
    ("nn", 6),
    ("mcts", 7),
    ("player", 8),
    ("protocol", 9),
    ("eval", 10),
    ("selfplay", 11),
    ("values", 12),
    ("train", 13),
    ("serve", 14),
];

#[cfg(test)]
mod tests {
    use super::LAYERS;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    /// The source tree read: this crate's `src/`, or the folder `FIVEUP_LAYERS_SRC` names (to
    /// report on another checkout with the same test).
    fn src() -> PathBuf {
        match std::env::var_os("FIVEUP_LAYERS_SRC") {
            Some(dir) => PathBuf::from(dir),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        }
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }

    /// The text of a line without its `//` comment (a `//` inside a string literal is kept).
    fn code(line: &str) -> &str {
        let mut in_str = false;
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\\' if in_str => i += 1,
                b'"' => in_str = !in_str,
                b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
                _ => {}
            }
            i += 1;
        }
        line
    }

    /// The first path segment of every item a path continuing at `rest` names: `a::b` gives
    /// `a`; `{a::b, c}` gives `a` and `c` (the group may continue on later lines).
    fn first_segments(rest: &str) -> Vec<String> {
        let ident =
            |s: &str| s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        let Some(group) = rest.strip_prefix('{') else {
            return vec![ident(rest)];
        };
        // Split the group at its top-level commas, up to its closing brace.
        let mut items = vec![String::new()];
        let mut depth = 0;
        for c in group.chars() {
            match c {
                '}' if depth == 0 => break,
                ',' if depth == 0 => items.push(String::new()),
                _ => {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    items.last_mut().unwrap().push(c);
                }
            }
        }
        items.iter().map(|s| ident(s)).filter(|s| !s.is_empty()).collect()
    }

    /// Every `crate::…` reference of a file: (line number, first segment after `prefix`).
    fn references(text: &str, prefix: &str) -> Vec<(usize, String)> {
        // Lines without comments, joined so that a `{ … }` group spanning lines is seen whole.
        let lines: Vec<&str> = text.lines().map(code).collect();
        let mut starts = Vec::with_capacity(lines.len());
        let mut joined = String::new();
        for l in &lines {
            starts.push(joined.len());
            joined.push_str(l);
            joined.push('\n');
        }
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(at) = joined[from..].find(prefix) {
            let at = from + at;
            from = at + prefix.len();
            let before = joined[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let line = starts.partition_point(|&s| s <= at);
            for seg in first_segments(&joined[from..]) {
                out.push((line, seg));
            }
        }
        out
    }

    fn layer(module: &str) -> Option<u32> {
        LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
    }

    /// The top-level module of a file of `src/`, `None` for the crate root files.
    fn module_of(rel: &Path) -> Option<String> {
        let first = rel.components().next()?.as_os_str().to_str()?.to_string();
        let name = first.trim_end_matches(".rs").to_string();
        (!matches!(name.as_str(), "lib" | "main" | "layers")).then_some(name)
    }

    /// Imports that point up or sideways, as "file:line: a (layer i) imports b (layer j)".
    fn upward_imports() -> Vec<String> {
        let root = src();
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        let mut bad = Vec::new();
        for path in files {
            let rel = path.strip_prefix(&root).unwrap();
            let Some(module) = module_of(rel) else { continue };
            if module == "cli" {
                continue; // the binary's commands: the top layer
            }
            let Some(own) = layer(&module) else {
                bad.push(format!("src/{}: module '{module}' has no layer in src/layers.rs", rel.display()));
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            for (line, target) in references(&text, "crate::") {
                if target == module || target == "self" || target.is_empty() {
                    continue;
                }
                match layer(&target) {
                    Some(l) if l < own => {}
                    Some(l) => bad.push(format!(
                        "src/{}:{line}: {module} (layer {own}) imports {target} (layer {l})",
                        rel.display()
                    )),
                    None => bad.push(format!("src/{}:{line}: imports '{target}', which has no layer", rel.display())),
                }
            }
        }
        bad
    }

    #[test]
    fn every_import_points_down() {
        let bad = upward_imports();
        assert!(bad.is_empty(), "{} imports break the layers (src/layers.rs):\n{}", bad.len(), bad.join("\n"));
    }

    #[test]
    fn every_module_has_a_layer() {
        let mut declared = BTreeSet::new();
        let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
        for line in lib.lines().map(code) {
            if let Some(m) = line.trim().strip_prefix("pub mod ").and_then(|s| s.strip_suffix(';')) {
                declared.insert(m.to_string());
            }
        }
        let have: BTreeSet<String> = LAYERS.iter().map(|(m, _)| m.to_string()).collect();
        let declared: BTreeSet<String> = declared.into_iter().filter(|m| m != "layers").collect();
        assert_eq!(declared, have, "lib.rs's modules and the layer table differ");
    }

    /// The circles among the files of each module, as lists of file names.
    fn file_cycles() -> Vec<String> {
        let root = src();
        let mut out = Vec::new();
        let mut modules: Vec<PathBuf> =
            std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        modules.sort();
        for dir in modules {
            let module = dir.file_name().unwrap().to_str().unwrap().to_string();
            let mut files = Vec::new();
            rust_files(&dir, &mut files);
            // A module's parts: the first component below its folder, `mod.rs` excepted.
            let part = |p: &Path| -> String {
                let rel = p.strip_prefix(&dir).unwrap();
                rel.components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs").to_string()
            };
            let parts: BTreeSet<String> = files.iter().map(|p| part(p)).filter(|p| p != "mod").collect();
            let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for path in &files {
                let from = part(path);
                if from == "mod" {
                    continue;
                }
                let text = std::fs::read_to_string(path).unwrap();
                let mut refs = references(&text, &format!("crate::{module}::"));
                // `super::x` in a file directly in the module's folder names a sibling part.
                if path.parent() == Some(dir.as_path()) {
                    refs.extend(references(&text, "super::"));
                }
                for (_, to) in refs {
                    if to != from && parts.contains(&to) {
                        edges.entry(from.clone()).or_default().insert(to);
                    }
                }
            }
            for cycle in cycles(&parts, &edges) {
                out.push(format!("src/{module}: {}", cycle.join(" -> ")));
            }
        }
        out
    }

    /// The strongly connected components with more than one node (Tarjan).
    fn cycles(nodes: &BTreeSet<String>, edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
        struct T<'a> {
            edges: &'a BTreeMap<String, BTreeSet<String>>,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on: BTreeSet<&'a str>,
            out: Vec<Vec<String>>,
        }
        fn visit<'a>(t: &mut T<'a>, v: &'a str) {
            let i = t.index.len();
            t.index.insert(v, i);
            t.low.insert(v, i);
            t.stack.push(v);
            t.on.insert(v);
            if let Some(ws) = t.edges.get(v) {
                for w in ws {
                    if !t.index.contains_key(w.as_str()) {
                        visit(t, w.as_str());
                        let lw = t.low[w.as_str()];
                        let lv = t.low.get_mut(v).unwrap();
                        *lv = (*lv).min(lw);
                    } else if t.on.contains(w.as_str()) {
                        let iw = t.index[w.as_str()];
                        let lv = t.low.get_mut(v).unwrap();
                        *lv = (*lv).min(iw);
                    }
                }
            }
            if t.low[v] == t.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    t.out.push(comp);
                }
            }
        }
        let mut t = T {
            edges,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in nodes {
            if !t.index.contains_key(v.as_str()) {
                visit(&mut t, v.as_str());
            }
        }
        t.out
    }

    #[test]
    fn no_circles_among_the_files_of_a_module() {
        let bad = file_cycles();
        assert!(bad.is_empty(), "files that import each other in a circle:\n{}", bad.join("\n"));
    }

    #[test]
    fn the_reader_finds_what_it_must() {
        let text = "use crate::rules::Position; // crate::train in a comment\n\
                    use crate::{engine::Engine,\n    nn::{a, b}};\n\
                    let x = \"// crate::serve\"; f(crate::mcts::x);\n\
                    /// [`crate::values`] in a doc line\n";
        let got: Vec<(usize, String)> = references(text, "crate::");
        let want = [(1, "rules"), (2, "engine"), (2, "nn"), (4, "serve"), (4, "mcts")];
        assert_eq!(got, want.map(|(l, s)| (l, s.to_string())).to_vec());
        assert_eq!(first_segments("{a::b, c, d::{e, f}}"), ["a", "c", "d"]);
        let nodes: BTreeSet<String> = ["a", "b", "c", "d"].map(String::from).into();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        edges.entry("a".into()).or_default().insert("b".into());
        edges.entry("b".into()).or_default().insert("c".into());
        edges.entry("c".into()).or_default().insert("a".into());
        edges.entry("c".into()).or_default().insert("d".into());
        assert_eq!(cycles(&nodes, &edges), vec![vec!["a".to_string(), "b".into(), "c".into()]]);
    }
}
