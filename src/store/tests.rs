//! Tests of the store's logic over object_store's in-memory store (the end-to-end tests against a
//! real S3 server are `tests/cli_cluster.rs` and `scripts/demo-cluster.sh`).

use super::lease::{Lease, LeaseBody, LEASE};
use super::*;
use bytes::Bytes;
use object_store::memory::InMemory;
use std::sync::Arc;
use std::time::Duration;

fn remote(store: &Arc<InMemory>) -> Arc<Remote> {
    let path = object_store::path::Path::from("runs/r1");
    Arc::new(Remote::with_store("memory://b/runs/r1", store.clone(), path).unwrap())
}

fn write(dir: &std::path::Path, name: &str, text: &str) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn names(r: &Remote) -> Vec<String> {
    r.list("").unwrap().into_iter().map(|o| o.name).collect()
}

#[test]
fn run_locations_parse_paths_and_urls() {
    assert_eq!(RunLocation::parse("runs/a").unwrap(), RunLocation::Local("runs/a".into()));
    assert_eq!(RunLocation::parse("/tmp/x:y").unwrap(), RunLocation::Local("/tmp/x:y".into()));
    assert_eq!(RunLocation::parse("s3://b/p/").unwrap(), RunLocation::Remote("s3://b/p".into()));
    assert_eq!(RunLocation::parse("gs://b").unwrap(), RunLocation::Remote("gs://b".into()));
    assert_eq!(RunLocation::parse("file:///srv/runs/a").unwrap(), RunLocation::Local("/srv/runs/a".into()));
    assert!(RunLocation::parse("file://runs/a").unwrap_err().to_string().contains("absolute path"));
    let e = RunLocation::parse("ftp://b/p").unwrap_err().to_string();
    assert!(e.contains("unknown scheme \"ftp\""), "{e}");
    assert!(RunLocation::parse("s3://").unwrap_err().to_string().contains("no bucket"));
    assert!(RunLocation::parse(" ").is_err());
    let c = RunLocation::default_cache("s3://b/p", "w1");
    assert!(c.to_string_lossy().ends_with("fiveup/runs/s3___b_p-w1"), "{}", c.display());
}

#[test]
fn a_push_uploads_changes_in_order_and_deletes_what_was_removed() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    let t = tempfile::tempdir().unwrap();
    let m = Mirror::open(r.clone(), t.path()).unwrap();
    write(t.path(), "config.toml", "a");
    write(t.path(), "state.json", "{}");
    write(t.path(), "best", "gen-0000");
    write(t.path(), "checkpoints/step-00000010/learner.json", "w");
    write(t.path(), "checkpoints/step-00000010/meta.json", "m");
    write(t.path(), "LOCK", "pid 1");
    write(t.path(), ".tmp-x", "partial");
    let s = m.push().unwrap();
    assert_eq!(s.files, 5, "LOCK and hidden files stay local");
    assert_eq!(
        names(&r),
        [
            "best",
            "checkpoints/step-00000010/learner.json",
            "checkpoints/step-00000010/meta.json",
            "config.toml",
            "state.json"
        ]
    );
    assert_eq!(m.push().unwrap().files, 0, "nothing changed");
    // The same size and the same time (a rewrite within one tick of the clock): the contents tell.
    let best = t.path().join("best");
    let when = std::fs::metadata(&best).unwrap().modified().unwrap();
    std::fs::write(&best, "gen-0001").unwrap();
    std::fs::File::options().write(true).open(&best).unwrap().set_modified(when).unwrap();
    assert_eq!(m.push().unwrap().files, 1, "best rewritten in place");
    assert_eq!(&r.get("best").unwrap().unwrap().0[..], b"gen-0001");
    // A rewrite goes again (a new size or time); a removal is deleted.
    std::thread::sleep(Duration::from_millis(20));
    write(t.path(), "state.json", "{\"g\": 1}");
    std::fs::remove_dir_all(t.path().join("checkpoints/step-00000010")).unwrap();
    let s = m.push().unwrap();
    assert_eq!((s.files, s.deleted), (1, 2));
    assert_eq!(names(&r), ["best", "config.toml", "state.json"]);
    assert_eq!(&r.get("state.json").unwrap().unwrap().0[..], b"{\"g\": 1}");
    // Only pruned checkpoints are deleted there: a shard gone from the cache (a cleaned /tmp)
    // stays in the store.
    write(t.path(), "shards/gen-0000/w-000000.shard", "games");
    assert_eq!(m.push().unwrap().files, 1);
    std::fs::remove_file(t.path().join("shards/gen-0000/w-000000.shard")).unwrap();
    assert_eq!(m.push().unwrap().deleted, 0);
    assert!(names(&r).contains(&"shards/gen-0000/w-000000.shard".to_string()));
}

#[test]
fn upload_order_puts_pointers_after_what_they_point_to() {
    use super::mirror::unit_of;
    assert_eq!(unit_of("models/gen-0001/net.json"), Some(("models/gen-0001", "net.json")));
    assert_eq!(unit_of("checkpoints/step-1/meta.json"), Some(("checkpoints/step-1", "meta.json")));
    assert_eq!(unit_of("shards/gen-0001/w-000001.shard"), None);
    assert_eq!(unit_of("models/gen-0001"), None);
}

#[test]
fn a_pull_makes_the_cache_equal_to_the_store_and_drops_cut_short_units() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    r.put("config.toml", Bytes::from_static(b"c")).unwrap();
    r.put("models/gen-0000/weights.safetensors", Bytes::from_static(b"w0")).unwrap();
    r.put("models/gen-0000/net.json", Bytes::from_static(b"n0")).unwrap();
    // Gen 1's upload was cut short: no marker.
    r.put("models/gen-0001/weights.safetensors", Bytes::from_static(b"w1")).unwrap();
    r.put("workers/w1.json", Bytes::from_static(b"{}")).unwrap();
    let t = tempfile::tempdir().unwrap();
    let m = Mirror::open(r.clone(), t.path()).unwrap();
    write(t.path(), "checkpoints/step-9/meta.json", "written locally, never uploaded");
    let s = m.pull_all(&super::mirror::accept_all).unwrap();
    assert_eq!(s.files, 3);
    assert_eq!(s.deleted, 2, "the cut-short model in the store and the unuploaded local checkpoint");
    assert!(!t.path().join("checkpoints/step-9").exists(), "no empty directory that looks like a checkpoint");
    assert!(!t.path().join("models/gen-0001").exists());
    assert!(!names(&r).contains(&"models/gen-0001/weights.safetensors".to_string()));
    assert!(!t.path().join("workers").exists(), "heartbeats stay in the store");
    assert_eq!(std::fs::read(t.path().join("models/gen-0000/net.json")).unwrap(), b"n0");
    assert_eq!(m.pull_all(&super::mirror::accept_all).unwrap().files, 0, "in step");
    assert_eq!(m.push().unwrap().files, 0, "a pull is not pushed back");
    // A changed object comes again.
    r.put("config.toml", Bytes::from_static(b"c2")).unwrap();
    assert_eq!(m.pull_all(&super::mirror::accept_all).unwrap().files, 1);
    assert_eq!(std::fs::read(t.path().join("config.toml")).unwrap(), b"c2");
}

#[test]
fn a_cache_of_another_run_or_a_foreign_directory_is_refused() {
    let store = Arc::new(InMemory::new());
    let t = tempfile::tempdir().unwrap();
    Mirror::open(remote(&store), t.path()).unwrap();
    let other = Arc::new(Remote::with_store("memory://b/other", store.clone(), "other".into()).unwrap());
    let e = Mirror::open(other, t.path()).unwrap_err().to_string();
    assert!(e.contains("this cache belongs to memory://b/runs/r1"), "{e}");
    let u = tempfile::tempdir().unwrap();
    write(u.path(), "thesis.tex", "precious");
    let e = Mirror::open(remote(&store), u.path()).unwrap_err().to_string();
    assert!(e.contains("not empty and not a fiveup cache"), "{e}");
    assert!(u.path().join("thesis.tex").exists());
}

#[test]
fn new_objects_are_checked_before_they_are_stored_and_a_bad_one_is_refused_once() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    r.put("shards/gen-0000/a-000000.shard", Bytes::from_static(b"good")).unwrap();
    r.put("shards/gen-0000/b-000000.shard", Bytes::from_static(b"bad!")).unwrap();
    let t = tempfile::tempdir().unwrap();
    let m = Mirror::open(r.clone(), t.path()).unwrap();
    let checks = std::sync::atomic::AtomicUsize::new(0);
    let verify = |_: &str, b: &[u8]| {
        checks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if b == b"good" {
            Ok(())
        } else {
            Err("bad checksum".to_string())
        }
    };
    assert_eq!(m.pull_new("shards/", &verify).unwrap(), ["shards/gen-0000/a-000000.shard"]);
    assert!(!t.path().join("shards/gen-0000/b-000000.shard").exists());
    assert_eq!(m.pull_new("shards/", &verify).unwrap(), Vec::<String>::new());
    assert_eq!(checks.load(std::sync::atomic::Ordering::SeqCst), 2, "neither is downloaded twice");
}

#[test]
fn a_taken_name_is_never_overwritten_and_the_file_takes_the_next_one() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    r.put("shards/gen-0000/w-000000.shard", Bytes::from_static(b"theirs")).unwrap();
    let t = tempfile::tempdir().unwrap();
    let m = Mirror::open(r.clone(), t.path()).unwrap();
    write(t.path(), "shards/gen-0000/w-000000.shard", "mine");
    let next = |n: &str| n.replace("000000", "000001");
    write(t.path(), "shards/gen-0000/w-000001.shard", "mine too, pending");
    let stored = m.upload_new("shards/gen-0000/w-000000.shard", &next).unwrap();
    assert_eq!(stored, "shards/gen-0000/w-000001.shard");
    assert_eq!(&r.get("shards/gen-0000/w-000000.shard").unwrap().unwrap().0[..], b"theirs");
    assert_eq!(&r.get(&stored).unwrap().unwrap().0[..], b"mine");
    let pending = std::fs::read(t.path().join("shards/gen-0000/w-000001.shard")).unwrap();
    assert_eq!(pending, b"mine too, pending", "a pending local file is never overwritten");
    // An upload whose answer was lost: the same bytes are already there, nothing is duplicated.
    write(t.path(), "shards/gen-0000/w-000001.shard", "mine");
    assert_eq!(m.upload_new("shards/gen-0000/w-000001.shard", &next).unwrap(), "shards/gen-0000/w-000001.shard");
    assert_eq!(r.list("shards/").unwrap().len(), 2);
}

#[test]
fn the_lease_excludes_a_second_trainer_and_an_expired_one_is_taken_over() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    let lease = Lease::acquire(r.clone(), Duration::from_secs(2)).unwrap();
    // A second trainer waits for the lease to expire, sees it renewed, and gives up.
    let t0 = std::time::Instant::now();
    let e = Lease::acquire(r.clone(), Duration::from_secs(2)).unwrap_err().to_string();
    assert!(e.contains("another trainer is running"), "{e}");
    assert!(t0.elapsed() >= Duration::from_secs(1), "it waited for an expiry first");
    lease.check().unwrap();
    drop(lease);
    let (bytes, _) = r.get(LEASE).unwrap().unwrap();
    let released: LeaseBody = serde_json::from_slice(&bytes).unwrap();
    assert!(released.holder.ends_with("(released)") && released.renewed_unix == 0.0, "{released:?}");
    // Released: the next trainer takes it at once.
    let t0 = std::time::Instant::now();
    drop(Lease::acquire(r.clone(), Duration::from_secs(2)).unwrap());
    assert!(t0.elapsed() < Duration::from_secs(1));
    // A dead trainer's lease (never renewed) is taken over once it expires.
    let dead = LeaseBody { holder: "gone:1:0".into(), renewed_unix: super::remote::now() - 10.0, ttl_s: 2.0 };
    r.put(LEASE, Bytes::from(serde_json::to_vec(&dead).unwrap())).unwrap();
    let lease = Lease::acquire(r.clone(), Duration::from_secs(2)).unwrap();
    // Someone overwrites it: the holder notices at its next renewal and stops.
    let thief = LeaseBody { holder: "thief:2:0".into(), renewed_unix: super::remote::now(), ttl_s: 60.0 };
    r.put(LEASE, Bytes::from(serde_json::to_vec(&thief).unwrap())).unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    assert!(lease.lost());
    assert!(lease.check().is_err());
    drop(lease);
    let (bytes, _) = r.get(LEASE).unwrap().unwrap();
    assert_eq!(serde_json::from_slice::<LeaseBody>(&bytes).unwrap().holder, "thief:2:0", "the successor's lease stays");
}

#[test]
fn a_foreign_object_where_the_lease_goes_is_an_error() {
    let store = Arc::new(InMemory::new());
    let r = remote(&store);
    r.put(LEASE, Bytes::from_static(b"not json")).unwrap();
    let e = Lease::acquire(r, Duration::from_secs(2)).unwrap_err().to_string();
    assert!(e.contains("not a fiveup lease"), "{e}");
}
