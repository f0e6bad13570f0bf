//! `aurum bench`, `aurum bench compare` and `aurum bench import-insn` end to end: the suite
//! at tiny sizes, the record's schema, the shipped records and the comparison table and chart
//! made from them (crates/bench/records/README.md), and clear errors for bad records and flags.

use std::path::{Path, PathBuf};
use std::process::Output;

use aurum_bench::record::{self, Record, RecordKind, SCHEMA, Stats, Unit};

use crate::common;

use common::{aurum, aurum_command, refused, stderr, stdout, temp};

/// The repository's root (where crates/bench/records is).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `aurum` in the repository's root, so that relative paths are those of the command in
/// crates/bench/records/README.md.
fn aurum_in_root(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .current_dir(root())
        .env_remove("AURUM_BACKEND")
        .output()
        .unwrap()
}

/// The shipped records.
fn shipped_records() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("crates/bench/records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
}

/// Equal texts, or a panic naming the first line that differs.
fn assert_same_text(made: &str, expected: &str, what: &str) {
    if made == expected {
        return;
    }
    let line = made
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| made.lines().count().min(expected.lines().count()));
    panic!(
        "{what}: line {} differs:\n  made:     {:?}\n  expected: {:?}",
        line + 1,
        made.lines().nth(line),
        expected.lines().nth(line)
    );
}

#[test]
fn stats_are_median_extremes_and_median_absolute_deviation() {
    let s = Stats::of(&[3.0, 1.0, 100.0, 2.0, 4.0]).unwrap();
    assert_eq!(
        (s.median, s.min, s.max, s.repetitions),
        (3.0, 1.0, 100.0, 5)
    );
    // Deviations 0, 2, 97, 1, 1 → median 1.
    assert_eq!(s.mad, 1.0);
    let even = Stats::of(&[1.0, 2.0, 4.0, 10.0]).unwrap();
    assert_eq!(even.median, 3.0);
    assert!(Stats::of(&[]).is_none());
    assert!(Stats::of(&[1.0, f64::NAN]).is_none());
}

#[test]
fn smoke_run_measures_every_figure_and_writes_a_valid_record() {
    let path = temp("smoke-record.json");
    let out = aurum(&[
        "bench",
        "--smoke",
        "--label",
        "smoke-test",
        "--threads",
        "2",
        "--clock-ghz",
        "2.5",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for expected in [
        "aurum bench (smoke mode), smoke-test:",
        "| figure | 1 thread | 2 threads | scaling | spread |",
        "Poseidon2 W8, permute_many",
        "Merkle commit 2^8 × 8, plonky2: permutations",
        "noise:",
        "wrote ",
    ] {
        assert!(text.contains(expected), "{expected:?} missing in\n{text}");
    }
    let file = std::fs::read_to_string(&path).unwrap();
    let record = record::parse(&file).unwrap();
    // The schema round-trips byte for byte.
    assert_same_text(&record.to_json(), &file, "the record written again");
    assert_eq!(record::parse(&record.to_json()).unwrap(), record);
    assert_eq!(record.schema, SCHEMA);
    assert_eq!(record.kind, RecordKind::Measured);
    assert_eq!(record.label, "smoke-test");
    assert_eq!(record.machine.clock_ghz, Some(2.5));
    assert_eq!(record.machine.clock_source.as_deref(), Some("--clock-ghz"));
    let build = record.build.as_ref().unwrap();
    assert_eq!(build.aurum_version, env!("CARGO_PKG_VERSION"));
    assert!(!build.target.is_empty());
    let run = record.run.as_ref().unwrap();
    assert_eq!(run.threads, 2);
    assert!(run.seconds > 0.0);
    for id in [
        "field/mul/selected",
        "perm/poseidon2-w8/dispatch",
        "perm/poseidon2-w12/dispatch",
        "perm/poseidon2-w16/dispatch",
        "perm/poseidon-w12/dispatch",
        "merkle/poseidon2-w8/2^8x8/seconds",
        "merkle/plonky2/2^8x8/permutations",
        "merkle/poseidon2-w12/2^6x256/input",
        "lde/2^8x8/seconds",
        "lde/2^6x256/input",
        "fri/poseidon2-w8/2^8x8/seconds",
        "perm/poseidon2-w8/scalar/b1",
        "perm/poseidon-w12/scalar/b4",
        "field/mul/scalar",
    ] {
        let figure = record
            .figure(id)
            .unwrap_or_else(|| panic!("no figure {id}"));
        let one = figure.one_thread.unwrap();
        assert!(one.median > 0.0 && one.repetitions == 2, "{id}: {one:?}");
        if !figure.detail {
            let all = figure.all_threads.unwrap();
            assert!(all.median > 0.0, "{id}");
            if figure.unit.is_rate() || figure.unit == Unit::Seconds {
                assert!(figure.scaling.unwrap() > 0.0, "{id}");
            }
        }
    }
    // Every headline rate figure's per-repetition values agree with its time figure.
    let seconds = record.figure("merkle/poseidon2-w8/2^8x8/seconds").unwrap();
    let input = record.figure("merkle/poseidon2-w8/2^8x8/input").unwrap();
    let bytes = 256.0 * 8.0 * 8.0;
    let expected = bytes / seconds.one_thread.unwrap().max;
    assert!((input.one_thread.unwrap().min - expected).abs() <= expected * 1e-9);
}

#[test]
fn shipped_records_round_trip_byte_for_byte() {
    let paths = shipped_records();
    assert!(paths.len() >= 6, "{paths:?}");
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let record: Record =
            record::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_same_text(&record.to_json(), &text, &path.display().to_string());
    }
}

/// The records' README (crates/bench/records/README.md), which shows their comparison.
const RECORDS_README: &str = "crates/bench/records/README.md";

/// The comparison in [`RECORDS_README`]: the arguments in the begin marker and the text
/// between the markers.
fn records_readme_comparison() -> (Vec<String>, String) {
    let readme = std::fs::read_to_string(root().join(RECORDS_README)).unwrap();
    let begin = "<!-- bench-compare:begin: aurum ";
    let start = readme.find(begin).expect("the begin marker");
    let line_end = start + readme[start..].find('\n').unwrap();
    let args = readme[start + begin.len()..line_end]
        .trim_end_matches("-->")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let end = readme
        .find("<!-- bench-compare:end -->")
        .expect("the end marker");
    (args, readme[line_end + 1..end].to_string())
}

#[test]
fn compare_of_the_shipped_records_is_the_records_readme_table() {
    let (args, table) = records_readme_comparison();
    assert_eq!(args[..2], ["bench", "compare"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = aurum_in_root(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_same_text(
        &stdout(&out),
        &table,
        &format!(
            "the table of {RECORDS_README} differs from `aurum {}` (run it and paste its output)",
            args.join(" ")
        ),
    );
    // The chart the README shows, by a path relative to the README, is the one these records
    // and flags draw.
    let readme = std::fs::read_to_string(root().join(RECORDS_README)).unwrap();
    let after_table = &readme[readme.find("<!-- bench-compare:end -->").unwrap()..];
    let image = after_table
        .split("![")
        .nth(1)
        .and_then(|rest| rest.split("](").nth(1))
        .and_then(|rest| rest.split(')').next())
        .expect("an image after the table");
    assert_eq!(image, "compare.svg", "the chart's path in {RECORDS_README}");
    let svg = temp("compare.svg");
    let mut with_svg = args.clone();
    with_svg.extend(["--svg", svg.to_str().unwrap()]);
    let out = aurum_in_root(&with_svg);
    assert!(out.status.success(), "{}", stderr(&out));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") && drawn.contains("<text"),
        "{drawn}"
    );
    let shipped = std::fs::read_to_string(root().join("crates/bench/records").join(image)).unwrap();
    assert_same_text(
        &drawn,
        &shipped,
        "crates/bench/records/compare.svg (out of date?)",
    );
}

#[test]
fn compare_json_has_every_record_and_figure() {
    let paths = shipped_records();
    let mut args = vec!["bench", "compare", "--json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let out = aurum(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["schema"], "aurum-bench-compare/1");
    assert_eq!(json["records"].as_array().unwrap().len(), paths.len());
    let measured = json["measured"].as_array().unwrap();
    let dispatch = measured
        .iter()
        .find(|f| f["id"] == "perm/poseidon2-w8/dispatch")
        .unwrap();
    for (label, cells) in dispatch["values"].as_object().unwrap() {
        let per_thread = cells["per_thread"].as_f64().unwrap();
        let all = cells["all_threads"].as_f64().unwrap();
        assert!(per_thread > 0.0 && per_thread <= all, "{label}");
    }
    assert!(!json["instructions"].as_array().unwrap().is_empty());
}

#[test]
fn import_insn_reproduces_the_shipped_emulated_records() {
    let dir = temp("imported");
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = root().join("crates/bench/records/aarch64-qemu-neon.json");
    let date = record::parse(&std::fs::read_to_string(&shipped).unwrap())
        .unwrap()
        .date;
    let counts = root().join("crates/bench/records/arm-instructions/counts.csv");
    let out = aurum(&[
        "bench",
        "import-insn",
        counts.to_str().unwrap(),
        "--columns",
        "neon,sve2-128,sve2-256,sve2-512",
        "--date",
        &date,
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for column in ["neon", "sve2-128", "sve2-256", "sve2-512"] {
        let name = format!("aarch64-qemu-{column}.json");
        let made = std::fs::read_to_string(dir.join(&name)).unwrap();
        let shipped =
            std::fs::read_to_string(root().join("crates/bench/records").join(&name)).unwrap();
        assert_same_text(&made, &shipped, &name);
    }
    // Only the columns asked for.
    assert!(!dir.join("aarch64-qemu-sve2-2048.json").exists());
}

/// A shipped measured record, as JSON to mutate.
fn measured_record() -> serde_json::Value {
    let path = shipped_records()
        .into_iter()
        .find(|p| {
            let r = record::parse(&std::fs::read_to_string(p).unwrap()).unwrap();
            r.has_wall_times()
        })
        .expect("a shipped measured record");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(name: &str, value: &serde_json::Value) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, serde_json::to_string(value).unwrap()).unwrap();
    path
}

#[test]
fn bad_records_are_clear_errors() {
    let good = measured_record();
    let mut cases: Vec<(&str, serde_json::Value, &str)> = Vec::new();
    let mut other_version = good.clone();
    other_version["schema"] = "aurum-bench/2".into();
    cases.push(("v2.json", other_version, "schema \"aurum-bench/2\""));
    let mut no_schema = good.clone();
    no_schema.as_object_mut().unwrap().remove("schema");
    cases.push(("noschema.json", no_schema, "missing field `schema`"));
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("machine");
    cases.push(("missing.json", missing, "missing field `machine`"));
    let mut unknown = good.clone();
    unknown["extra"] = 1.into();
    cases.push(("unknown.json", unknown, "unknown field `extra`"));
    let mut bad_unit = good.clone();
    bad_unit["figures"][0]["unit"] = "furlongs".into();
    cases.push(("unit.json", bad_unit, "furlongs"));
    let mut median_out = good.clone();
    median_out["figures"][0]["one_thread"]["median"] = 1e30.into();
    cases.push(("median.json", median_out, "figures[0].one_thread"));
    let with_all = good["figures"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| !f["all_threads"].is_null())
        .unwrap();
    let mut negative = good.clone();
    negative["figures"][with_all]["all_threads"]["min"] = (-1.0).into();
    let field = format!("figures[{with_all}].all_threads");
    cases.push(("negative.json", negative, &field));
    let mut duplicate = good.clone();
    let first = duplicate["figures"][0].clone();
    duplicate["figures"].as_array_mut().unwrap().push(first);
    cases.push(("duplicate.json", duplicate, "not unique"));
    let mut label = good.clone();
    label["label"] = "a b".into();
    cases.push(("label.json", label, "`label`"));
    for (name, value, needle) in cases {
        let path = write_json(name, &value);
        let out = aurum(&["bench", "compare", path.to_str().unwrap()]);
        refused(&out, &[needle]);
        assert!(stderr(&out).contains(name), "{}", stderr(&out));
    }
    for (name, contents, needle) in [
        ("notjson.json", "{ not json", "not an aurum-bench/1 record"),
        ("array.json", "[1, 2]", "not an object"),
        ("binary.json", "\u{0}\u{1}", "not an aurum-bench/1 record"),
    ] {
        let path = temp(name);
        std::fs::write(&path, contents).unwrap();
        refused(
            &aurum(&["bench", "compare", path.to_str().unwrap()]),
            &[needle],
        );
    }
    let missing = temp("does-not-exist.json");
    refused(
        &aurum(&["bench", "compare", missing.to_str().unwrap()]),
        &["cannot read"],
    );
    // The same machine twice.
    let path = write_json("twice.json", &good);
    let p = path.to_str().unwrap();
    refused(
        &aurum(&["bench", "compare", p, p]),
        &["two records are labelled"],
    );
}

#[test]
fn bad_prices_are_clear_errors() {
    let good = measured_record();
    let label = good["label"].as_str().unwrap().to_string();
    let path = write_json("priced.json", &good);
    let emulated = root().join("crates/bench/records/aarch64-qemu-neon.json");
    let records = [path.to_str().unwrap(), emulated.to_str().unwrap()];
    for (price, needle) in [
        (label.clone(), "expected LABEL=USD_PER_HOUR"),
        (format!("{label}=abc"), "is not a price"),
        (format!("{label}=-1"), "is not a price"),
        (format!("{label}=0"), "is not a price"),
        (format!("{label}=NaN"), "is not a price"),
        (format!("{label}=inf"), "is not a price"),
        ("nobody=1".to_string(), "no record is labelled \"nobody\""),
        ("aarch64-qemu-neon=1".to_string(), "has no wall times"),
    ] {
        let mut args = vec!["bench", "compare", "--price", &price];
        args.extend(records);
        refused(&aurum(&args), &[needle]);
    }
    let twice = format!("{label}=1");
    let mut args = vec!["bench", "compare", "--price", &twice, "--price", &twice];
    args.extend(records);
    refused(&aurum(&args), &["priced twice"]);
    // A good price gives the cost table.
    let mut args = vec!["bench", "compare", "--price", &twice];
    args.extend(records);
    let out = aurum(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("**Cost**"), "{}", stdout(&out));
    assert!(stdout(&out).contains("extrapolation"), "{}", stdout(&out));
}

#[test]
fn bad_run_flags_and_counts_are_clear_errors() {
    let out = temp("never-written.json");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["bench", "--smoke", "--label", "a/b", "--out", out],
            "--label",
        ),
        (
            vec!["bench", "--smoke", "--label", "", "--out", out],
            "--label",
        ),
        (
            vec!["bench", "--smoke", "--clock-ghz=-3", "--out", out],
            "--clock-ghz",
        ),
        (
            vec!["bench", "--smoke", "--clock-ghz", "NaN", "--out", out],
            "--clock-ghz",
        ),
        (
            vec!["bench", "--smoke", "--emulated", " ", "--out", out],
            "--emulated",
        ),
    ] {
        refused(&aurum(&args), &[needle]);
    }
    assert!(!Path::new(out).exists());
    // Conflicting sizes are a usage error (clap's, also status 2).
    let both = aurum(&["bench", "--quick", "--full"]);
    assert_eq!(both.status.code(), Some(2));
    let bad = temp("counts.csv");
    std::fs::write(&bad, "kernel,per_unit\np2w8,7\n").unwrap();
    let out_dir = temp("import-bad");
    refused(
        &aurum(&[
            "bench",
            "import-insn",
            bad.to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
        ]),
        &["expected the header"],
    );
    let counts = root().join("crates/bench/records/arm-instructions/counts.csv");
    for (flag, value, needle) in [
        ("--columns", "nonsense", "is not a column"),
        ("--date", "yesterday", "--date"),
    ] {
        refused(
            &aurum(&[
                "bench",
                "import-insn",
                counts.to_str().unwrap(),
                flag,
                value,
                "--out-dir",
                out_dir.to_str().unwrap(),
            ]),
            &[needle],
        );
    }
}

#[test]
fn an_emulated_run_is_marked_and_its_times_are_not_compared() {
    let path = temp("emulated-record.json");
    let out = aurum_command()
        .args([
            "bench",
            "--smoke",
            "--label",
            "emu",
            "--out",
            path.to_str().unwrap(),
        ])
        .env("AURUM_EMULATED", "qemu-test-model")
        .env_remove("AURUM_BACKEND")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("EMULATED (qemu-test-model)"),
        "{}",
        stdout(&out)
    );
    let record = record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let emulation = record.machine.emulated.as_ref().unwrap();
    assert_eq!(emulation.name, "qemu-test-model");
    assert_eq!(emulation.detected_by, "AURUM_EMULATED");
    assert!(record.machine.clock_ghz.is_none());
    assert!(!record.has_wall_times());
    let compared = aurum(&["bench", "compare", path.to_str().unwrap()]);
    assert!(compared.status.success(), "{}", stderr(&compared));
    let table = stdout(&compared);
    assert!(table.contains("emulated: times not compared"), "{table}");
    assert!(!table.contains("**Measured**"), "{table}");
}

#[test]
fn extreme_values_still_compare_and_draw() {
    let mut record = measured_record();
    let label = record["label"].as_str().unwrap().to_string();
    for figure in record["figures"].as_array_mut().unwrap() {
        for (threads, value) in [("one_thread", 1e-300), ("all_threads", 1.7e308)] {
            if !figure[threads].is_null() {
                for stat in ["median", "min", "max"] {
                    figure[threads][stat] = value.into();
                }
                figure[threads]["mad"] = 0.0.into();
            }
        }
    }
    record["machine"]["clock_ghz"] = 0.001.into();
    let path = write_json("extreme.json", &record);
    let svg = temp("extreme.svg");
    let price = format!("{label}=1000000");
    let out = aurum(&[
        "bench",
        "compare",
        path.to_str().unwrap(),
        "--price",
        &price,
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let json = aurum(&["bench", "compare", "--json", path.to_str().unwrap()]);
    assert!(json.status.success(), "{}", stderr(&json));
}
