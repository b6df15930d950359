// Build script: make binaries, tests and benches find libtorch at run time (rpath, so no
// LD_LIBRARY_PATH is needed) and, where the CUDA libraries are present, keep libtorch_cuda linked
// so that tch::Cuda::is_available() can be true (the linker's --as-needed would otherwise drop
// it: nothing references it directly). Does nothing unless the `torch` feature is on.
// libtorch itself comes from $LIBTORCH, which scripts/env.sh exports (see scripts/setup.sh).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    embed_web_assets();
    vnni_cfg();
    for v in ["LIBTORCH", "LIBTORCH_LIB", "FIVEUP_TORCH_CUDA"] {
        println!("cargo:rerun-if-env-changed={v}");
    }
    if env::var_os("CARGO_FEATURE_TORCH").is_none() {
        return;
    }
    let Some(lib) = libtorch_lib_dir() else {
        println!("cargo:warning=fiveup: libtorch lib dir not found, no rpath added");
        return;
    };
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());

    let cuda_so = lib.join("libtorch_cuda.so");
    // Re-check when the CUDA wheels appear or go (pip's nvidia/ next to torch/).
    for p in [cuda_so.clone(), lib.join("../../nvidia")] {
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    let want_cuda = match env::var("FIVEUP_TORCH_CUDA").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        // auto: only if every library libtorch_cuda.so needs resolves, else the
        // binary would not even start on a machine without the CUDA wheels.
        _ => cuda_so.exists() && deps_resolve(&cuda_so),
    };
    if want_cuda && cuda_so.exists() {
        println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
        println!("cargo:rustc-link-arg={}", cuda_so.display());
        println!("cargo:rustc-link-arg=-Wl,--as-needed");
    }
}

/// `cfg(fiveup_vnni)` where the compiler has the VNNI intrinsics and target features (stable
/// since Rust 1.89; the crate's MSRV is older): the NNUE evaluation then uses `vpdpbusd` on CPUs
/// that have it (src/engine/nnue/simd.rs), else AVX2 only.
fn vnni_cfg() {
    println!("cargo:rustc-check-cfg=cfg(fiveup_vnni)");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let mut v = text.split_whitespace().nth(1).unwrap_or("").split('.').map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (v.next().unwrap_or(0), v.next().unwrap_or(0));
    if (major, minor) >= (1, 89) {
        println!("cargo:rustc-cfg=fiveup_vnni");
    }
}

/// Same answer as torch-sys: its exported `libtorch_lib` (needs a direct
/// dependency on torch-sys, `links = "tch"`), else $LIBTORCH_LIB/lib or
/// $LIBTORCH/lib, else the `torch/lib` of the python on PATH.
fn libtorch_lib_dir() -> Option<PathBuf> {
    if let Some(p) = env::var_os("DEP_TCH_LIBTORCH_LIB") {
        return Some(PathBuf::from(p));
    }
    if let Some(p) = env::var_os("LIBTORCH_LIB").or_else(|| env::var_os("LIBTORCH")) {
        return Some(Path::new(&p).join("lib"));
    }
    let py = if env::var_os("VIRTUAL_ENV").is_some() { "python" } else { "python3" };
    let out = Command::new(py)
        .args([
            "-c",
            "import importlib.util as u, os; print(os.path.join(os.path.dirname(u.find_spec('torch').origin), 'lib'))",
        ])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && dir.is_dir()).then_some(dir)
}

fn deps_resolve(so: &Path) -> bool {
    match Command::new("ldd").arg(so).output() {
        Ok(o) => o.status.success() && !String::from_utf8_lossy(&o.stdout).contains("not found"),
        Err(_) => false,
    }
}

/// Writes `$OUT_DIR/web_assets.rs`: a table `(path, bytes)` of every file under `web/static/`
/// (paths relative to it, `/`-separated, sorted), included by `src/serve/assets.rs`, so that
/// `fiveup serve` carries its page. Re-runs when anything there changes.
fn embed_web_assets() {
    // The manifest directory of this build (read when the script runs, not baked in when it is
    // compiled: a script compiled for another checkout sharing the target directory would embed
    // that checkout's files, or none).
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("web").join("static");
    assert!(root.join("index.html").is_file(), "the web page is missing: {}", root.join("index.html").display());
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect_files(&root, &root, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        out += &format!("    ({rel:?}, include_bytes!({:?}) as &[u8]),\n", abs.display().to_string());
    }
    out += "]\n";
    let dest = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("web_assets.rs");
    std::fs::write(dest, out).expect("write web_assets.rs");
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect_files(root, &path, out);
        } else if path.is_file() {
            let rel = path.strip_prefix(root).expect("under root");
            let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            out.push((rel.join("/"), path));
        }
    }
}
