//! `AURUM_DEVICE`: an unknown value is refused; `cuda` runs on the GPU where there is one (the
//! same root and cap as the CPU's) and is a one-line error where there is none; `--tree` stays
//! on the CPU; the report names the device.

use crate::common::{aurum, aurum_command, json, refused, stdout, temp};

fn with_device(device: &str, args: &[&str]) -> std::process::Output {
    aurum_command()
        .args(args)
        .env_remove("AURUM_BACKEND")
        .env_remove("AURUM_BATCH")
        .env_remove("AURUM_HUGE_PAGES")
        .env("AURUM_DEVICE", device)
        .output()
        .unwrap()
}

#[test]
fn a_value_that_names_no_device_is_refused() {
    for args in [
        &["commit", "--rows", "64"][..],
        &["info", "--millis", "1"],
        &["fri", "--rows", "64", "--cols", "2"],
    ] {
        refused(
            &with_device("tpu", args),
            &["AURUM_DEVICE=\"tpu\"", "expected auto, cpu or cuda"],
        );
    }
}

#[test]
fn cuda_runs_on_the_gpu_or_says_there_is_none() {
    let args = [
        "commit",
        "--rows",
        "1000",
        "--cols",
        "9",
        "--cap-height",
        "2",
        "--json",
    ];
    let cpu = json(&with_device("cpu", &args));
    assert_eq!(cpu["device"], "cpu");
    let out = with_device("cuda", &args);
    if out.status.success() {
        let gpu = json(&out);
        assert!(gpu["device"].as_str().unwrap().ends_with("(CUDA)"), "{gpu}");
        assert_eq!(gpu["root"], cpu["root"]);
        assert_eq!(gpu["cap"], cpu["cap"]);
    } else {
        // No GPU here: the reason, named after the variable, and no output.
        refused(&out, &["AURUM_DEVICE=cuda: "]);
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn a_tree_file_is_written_by_the_cpu() {
    let input = temp("device-tree-input.bin");
    let values: Vec<u8> = (0..64u64).flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&input, values).unwrap();
    let tree = temp("device-tree.aurumtree");
    let args = [
        "commit",
        "--input",
        input.to_str().unwrap(),
        "--tree",
        tree.to_str().unwrap(),
    ];
    refused(
        &with_device("cuda", &args),
        &["--tree", "AURUM_DEVICE=cpu or auto"],
    );
    assert!(!tree.exists());
    // Under auto the same command commits, on the CPU.
    let out = with_device("auto", &args);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("device:      cpu"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_report_names_the_device() {
    let out = aurum(&["commit", "--rows", "64"]);
    assert!(out.status.success());
    // A small matrix stays on the CPU under auto, GPU or not.
    assert!(
        stdout(&out).contains("device:      cpu"),
        "{}",
        stdout(&out)
    );
}

/// `aurum fri` follows `AURUM_DEVICE` for its LDE and input tree: on the GPU where there is
/// one, with the same proof as the CPU's; a one-line error under `cuda` where there is none.
#[test]
fn fri_proves_on_the_gpu_or_says_there_is_none() {
    let cpu_file = temp("device-fri-cpu.json");
    let gpu_file = temp("device-fri-gpu.json");
    let _ = std::fs::remove_file(&cpu_file);
    let _ = std::fs::remove_file(&gpu_file);
    let args = |out: &std::path::Path| {
        [
            "fri",
            "--rows",
            "1024",
            "--cols",
            "5",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ]
        .map(str::to_string)
    };
    let run = |device: &str, out: &std::path::Path| {
        let args = args(out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        with_device(device, &args)
    };
    let cpu = json(&run("cpu", &cpu_file));
    assert_eq!(cpu["device"], "cpu");
    let out = run("cuda", &gpu_file);
    if out.status.success() {
        let gpu = json(&out);
        assert!(gpu["device"].as_str().unwrap().contains("(CUDA)"), "{gpu}");
        assert_eq!(gpu["root"], cpu["root"]);
        assert_eq!(
            std::fs::read(&gpu_file).unwrap(),
            std::fs::read(&cpu_file).unwrap(),
            "the proof files differ"
        );
    } else {
        refused(&out, &["AURUM_DEVICE=cuda: "]);
        assert!(stdout(&out).is_empty());
        assert!(!gpu_file.exists());
    }
    // Small jobs stay on the CPU under auto, GPU or not.
    let out = with_device("auto", &["fri", "--rows", "64", "--cols", "2"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("device:       cpu"),
        "{}",
        stdout(&out)
    );
}

/// `aurum bench` measures the GPU beside the CPU under `cuda` (its description and `gpu/…`
/// figures join the record), and says there is none where there is none; under `cpu` the
/// record has neither.
#[test]
fn bench_measures_the_gpu_or_says_there_is_none() {
    let path = temp("device-bench.json");
    let _ = std::fs::remove_file(&path);
    let args = ["bench", "--smoke", "--out", path.to_str().unwrap()];
    let out = with_device("cuda", &args);
    if out.status.success() {
        let record = json_file(&path);
        assert!(record["machine"]["gpu"]["name"].is_string(), "{record}");
        let ids: Vec<&str> = record["figures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["id"].as_str().unwrap())
            .collect();
        for id in [
            "gpu/perm/poseidon2-w8",
            "gpu/merkle/plonky2/2^8x8/host-to-root",
            "gpu/lde/2^8x8/kernels",
        ] {
            assert!(ids.contains(&id), "{id} missing in {ids:?}");
        }
    } else {
        refused(&out, &["AURUM_DEVICE=cuda: "]);
        assert!(!path.exists());
    }
    let out = with_device("cpu", &args);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let record = json_file(&path);
    assert!(record["machine"].get("gpu").is_none(), "{record}");
    assert!(
        record["figures"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| !f["id"].as_str().unwrap().starts_with("gpu/"))
    );
}

fn json_file(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
