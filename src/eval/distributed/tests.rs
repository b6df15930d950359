//! Coordinator and workers on a directory (the same code as on an object store, which the
//! cluster demo checks against a real S3 server).

use super::*;
use crate::eval::openings::OpeningSource;
use crate::eval::records::TextRecord;
use crate::eval::runner::{paired_jobs, play_games, GameJob, PlayerSource};
use crate::player::spec::PlayerSpec;
use crate::rules::{Position, Variant};
use crate::store::{Remote, RunLocation};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn src(s: &str) -> PlayerSource {
    s.parse::<PlayerSpec>().unwrap().into()
}

fn jobs(pairs: usize, white: &str, black: &str) -> Vec<GameJob> {
    let start = Position::startpos(Variant::default());
    let openings = OpeningSource::Random { plies: 4 }.openings(&start, pairs, 5).unwrap();
    paired_jobs(&src(white), &src(black), &openings, 0, Some(60), "test")
}

/// A record's text without its thinking times (the only part that is not reproducible).
fn text(r: &TextRecord) -> String {
    r.to_text().lines().filter(|l| !l.contains("Seconds")).collect::<Vec<_>>().join("\n")
}

fn coordinator(dir: &Path, command: &str, ttl: f64) -> Coordinator {
    Coordinator::open(&RunLocation::Local(dir.to_path_buf()), "fiveup", command, Duration::from_secs_f64(ttl)).unwrap()
}

/// A worker's thread and its stop flag.
type WorkerThread = (Arc<AtomicBool>, std::thread::JoinHandle<Result<WorkerSummary, worker::WorkerError>>);

/// A worker of the 5x5x5 games on `dir` in a thread of its own; set the flag to stop it.
fn spawn_worker(dir: &Path, name: &str) -> WorkerThread {
    spawn_worker_of::<Position>(dir, name)
}

/// A worker of game `S` on `dir` in a thread of its own.
fn spawn_worker_of<S: crate::eval::records::RecordGame>(dir: &Path, name: &str) -> WorkerThread {
    let stop = Arc::new(AtomicBool::new(false));
    let (dir, name, s) = (dir.to_path_buf(), name.to_string(), stop.clone());
    let h = std::thread::spawn(move || {
        let remote = Arc::new(Remote::open_dir(&dir).unwrap());
        let d = worker::wait_for_descriptor(&remote, &s)?.expect("a descriptor");
        let cfg = WorkerConfig {
            name: name.clone(),
            concurrency: 1,
            cache: dir.join(format!("../cache-{name}")),
            stay: false,
            poll: Duration::from_millis(50),
            allow_uci: false,
        };
        run_worker::<S>(remote, &d, cfg, s)
    });
    (stop, h)
}

#[test]
fn games_played_by_workers_are_the_games_played_here_in_job_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let all = jobs(4, "ab:depth=1", "ab:depth=2");
    let mut here = vec![String::new(); all.len()];
    play_games(all.clone(), 1, |i, r| here[i] = text(&r)).unwrap();

    let c = coordinator(&dir, "match test", 30.0);
    let workers = [spawn_worker(&dir, "w1"), spawn_worker(&dir, "w2")];
    let mut there = Vec::new();
    c.play_until(all.clone(), |i, r| {
        there.push((i, text(&r)));
        ControlFlow::Continue(())
    })
    .unwrap();
    c.finish("done").unwrap();
    let summaries: Vec<WorkerSummary> = workers.into_iter().map(|(_, h)| h.join().unwrap().unwrap()).collect();
    // In job order, each game once, equal to the one-machine games.
    assert_eq!(there.iter().map(|(i, _)| *i).collect::<Vec<_>>(), (0..all.len()).collect::<Vec<_>>());
    for (i, t) in &there {
        assert_eq!(t, &here[*i], "game {i}");
    }
    assert_eq!(summaries.iter().map(|s| s.pairs).sum::<u64>(), 4, "{summaries:?}");
    assert!(summaries.iter().all(|s| s.ended.contains("finished")), "{summaries:?}");
    // Counted work is cleared from the store; results stay (a restarted coordinator reads them).
    let r = c.remote();
    assert!(r.list("jobs/").unwrap().is_empty() && r.list("claims/").unwrap().is_empty());
    assert_eq!(r.list("results/").unwrap().len(), 4);
    drop(c);

    // A restart with the same command replays nothing: the results are on the store.
    let c = coordinator(&dir, "match test", 30.0);
    let mut again = Vec::new();
    c.play_until(all, |i, r| {
        again.push((i, text(&r)));
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(again, there);
}

#[test]
fn a_pair_whose_worker_died_is_played_again_after_its_claim_expires() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let all = jobs(2, "ab:depth=1", "random:seed=3");
    let c = coordinator(&dir, "match test", 1.0);
    let remote = Remote::open_dir(&dir).unwrap();
    let (stop, h) = std::thread::scope(|s| {
        let ghost = s.spawn(|| {
            // A worker that claims the first job posted and dies at once.
            loop {
                if let Some(o) = remote.list("jobs/").unwrap().first() {
                    let id = layout::job_id_of(&o.name).unwrap().to_string();
                    assert!(claim::take(&remote, &id, 1, "ghost").unwrap());
                    return id;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        // Posting happens inside play_until; the real worker joins once the ghost has its claim.
        let mut got = Vec::new();
        let worker = s.spawn(|| {
            while remote.list("claims/").unwrap().is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
            spawn_worker(&dir, "w1")
        });
        c.play_until(all.clone(), |i, r| {
            got.push((i, r.outcome.is_some()));
            ControlFlow::Continue(())
        })
        .unwrap();
        let ghost_id = ghost.join().unwrap();
        assert_eq!(got.len(), 4);
        // The ghost's pair was claimed again: a second generation exists no more (cleared), but
        // the result came from w1.
        let res = remote.get(&layout::result(&ghost_id)).unwrap().unwrap().0;
        assert!(String::from_utf8_lossy(&res).contains("\"worker\": \"w1\""));
        worker.join().unwrap()
    });
    c.finish("done").unwrap();
    stop.store(true, Ordering::SeqCst);
    assert_eq!(h.join().unwrap().unwrap().pairs, 2);
}

#[test]
fn a_damaged_result_is_refused_and_its_pair_played_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let all = jobs(1, "ab:depth=1", "random:seed=3");
    let c = coordinator(&dir, "match test", 30.0);
    let remote = Remote::open_dir(&dir).unwrap();
    let mut n = 0;
    let (stop, h) = std::thread::scope(|s| {
        let forger = s.spawn(|| {
            // A result in the job's name that is not the job's games, before any worker runs.
            let id = loop {
                if let Some(o) = remote.list("jobs/").unwrap().first() {
                    break layout::job_id_of(&o.name).unwrap().to_string();
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            let forged = job::JobResult {
                id: id.clone(),
                fiveup: version(),
                worker: "forger".into(),
                records: vec!["[Event \"x\"]\n\n1. *\n".into(), String::new()],
                seconds: 0.0,
            };
            remote.put_new(&layout::result(&id), serde_json::to_vec(&forged).unwrap().into()).unwrap();
            while remote.list("rejected/").unwrap().is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
            spawn_worker(&dir, "w1")
        });
        c.play_until(all, |_, r| {
            assert!(r.outcome.is_some());
            n += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
        forger.join().unwrap()
    });
    c.finish("done").unwrap();
    assert_eq!(n, 2);
    assert_eq!(remote.list("rejected/").unwrap().len(), 1);
    stop.store(true, Ordering::SeqCst);
    assert_eq!(h.join().unwrap().unwrap().pairs, 1);
}

#[test]
fn a_decision_withdraws_the_pairs_not_needed_and_workers_stop() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let c = coordinator(&dir, "sprt test", 30.0);
    let (_, h) = spawn_worker(&dir, "w1");
    let mut n = 0;
    c.play_until(jobs(20, "ab:depth=1", "random:seed=3"), |_, _| {
        n += 1;
        if n == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(n, 2);
    assert!(c.remote().list("jobs/").unwrap().is_empty(), "the other pairs are withdrawn");
    c.finish("H1 accepted").unwrap();
    let s = h.join().unwrap().unwrap();
    assert!(s.ended.contains("finished: H1 accepted"), "{s:?}");
    assert!(s.pairs < 20, "{s:?}");
}

#[test]
fn a_prefix_of_something_else_or_another_coordinator_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let at = |d: &Path, cmd: &str| {
        Coordinator::open(&RunLocation::Local(d.to_path_buf()), "fiveup", cmd, Duration::from_secs(30))
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let c = coordinator(&dir, "match A", 30.0);
    let e = at(&dir, "match A");
    assert!(e.contains("another coordinator is running"), "{e}");
    drop(c);
    let e = at(&dir, "match B");
    assert!(e.contains("holds another evaluation (`fiveup match A`)"), "{e}");
    // A training run's directory, and one with files but no evaluation.
    let train = tmp.path().join("train");
    std::fs::create_dir_all(&train).unwrap();
    std::fs::write(train.join("state.json"), "{}").unwrap();
    assert!(at(&train, "match A").contains("holds a training run"));
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    assert!(at(&other, "match A").contains("holds files but no evaluation"));
    assert!(other.join("notes.txt").exists(), "nothing of it touched");
}

#[test]
fn a_worker_of_another_version_is_refused_naming_both() {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Remote::open_dir(tmp.path()).unwrap();
    let d = Descriptor {
        format: job::FORMAT.into(),
        fiveup: "0.0.1 (games format 0)".into(),
        game: "fiveup".into(),
        command: "match".into(),
        created_unix: 0.0,
        claim_ttl_s: 60.0,
    };
    remote.put(layout::DESCRIPTOR, serde_json::to_vec(&d).unwrap().into()).unwrap();
    let e = worker::wait_for_descriptor(&remote, &AtomicBool::new(false)).unwrap_err().to_string();
    assert!(e.contains("coordinator is fiveup 0.0.1 (games format 0)") && e.contains(&version()), "{e}");
}

#[test]
fn a_player_file_that_does_not_arrive_whole_is_reported_and_stops_the_coordinator() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let values = tmp.path().join("w.toml");
    std::fs::write(&values, "[values]\nknight = 350\n").unwrap();
    let spec = format!("ab:depth=1,values={}", values.display());
    let c = coordinator(&dir, "match test", 30.0);
    let remote = Remote::open_dir(&dir).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            // Damage the shipped file before the worker fetches it.
            let o = loop {
                if let Some(o) = remote.list("files/").unwrap().into_iter().next() {
                    break o;
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            remote.put(&o.name, bytes::Bytes::from_static(b"[values]\nknight = 999\n")).unwrap();
            let (_, h) = spawn_worker(&dir, "w1");
            h
        });
        let e = c.play_until(jobs(1, &spec, "random:seed=1"), |_, _| ControlFlow::Continue(())).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("worker w1 cannot play pair") && e.contains("does not match its checksum"), "{e}");
        c.finish("failed").unwrap();
    });
}

#[test]
fn claims_expire_are_released_and_have_one_winner_per_generation() {
    let tmp = tempfile::tempdir().unwrap();
    let r = Remote::open_dir(tmp.path()).unwrap();
    assert!(claim::take(&r, "ab12", 1, "w1").unwrap());
    assert!(!claim::take(&r, "ab12", 1, "w2").unwrap(), "one winner");
    let st = claim::states(&r.list("claims/").unwrap());
    let now = crate::store::remote::now();
    assert_eq!(claim::next_generation(st.get("ab12"), now, 60.0), None, "held");
    assert_eq!(claim::next_generation(st.get("ab12"), now + 61.0, 60.0), Some(2), "expired");
    assert!(claim::take(&r, "ab12", 2, "w2").unwrap());
    assert!(!claim::renew(&r, "ab12", 1, "w1").unwrap(), "w1 lost it");
    assert!(claim::renew(&r, "ab12", 2, "w2").unwrap());
    claim::release(&r, "ab12", 2).unwrap();
    let st = claim::states(&r.list("claims/").unwrap());
    assert_eq!(claim::next_generation(st.get("ab12"), now, 60.0), Some(3), "released");
}

#[test]
fn material_verdicts_at_the_cap_are_reached_on_workers_and_checked_by_the_coordinator() {
    use crate::eval::records::RecordGame;
    use crate::game::State;
    use crate::mixed3d::Position as M3;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("eval");
    let start = M3::start();
    let openings = OpeningSource::Random { plies: 2 }.openings_of(&start, 2, 5).unwrap();
    let (a, b): (PlayerSource<M3>, PlayerSource<M3>) =
        ("ab:depth=1".parse::<PlayerSpec>().unwrap().into(), "random:seed=3".parse::<PlayerSpec>().unwrap().into());
    let judge = M3::material_adjudicator(3.0).unwrap();
    let all: Vec<GameJob<M3>> = paired_jobs(&a, &b, &openings, 0, Some(16), "test")
        .into_iter()
        .map(|j| GameJob { adjudicate: Some(judge.clone()), ..j })
        .collect();
    let text =
        |r: &TextRecord<M3>| r.to_text().lines().filter(|l| !l.contains("Seconds")).collect::<Vec<_>>().join("\n");
    let mut here = vec![String::new(); all.len()];
    play_games(all.clone(), 1, |i, r| here[i] = text(&r)).unwrap();
    assert!(here.iter().any(|t| t.contains("adjudication/material")), "{here:?}");

    let c =
        Coordinator::open(&RunLocation::Local(dir.clone()), "mixed3d", "match m3", Duration::from_secs(30)).unwrap();
    let (_, h) = spawn_worker_of::<M3>(&dir, "w1");
    let mut there = vec![String::new(); all.len()];
    c.play_until(all, |i, r| {
        there[i] = text(&r);
        ControlFlow::Continue(())
    })
    .unwrap();
    c.finish("done").unwrap();
    assert_eq!(there, here, "the worker judges as this machine does");
    assert_eq!(h.join().unwrap().unwrap().pairs, 2);
    assert!(c.remote().list("rejected/").unwrap().is_empty());

    // The coordinator's checks: a verdict by material needs the job's judge, at the cap, and
    // the judge's own answer.
    // Each job is gone once counted: rebuild it from its records (players, start, opening).
    let rebuild = |result: &job::JobResult| -> job::Job {
        let player = |spec: &str| job::PlayerRef { spec: spec.into(), unlimited: false, files: vec![] };
        let games = result
            .records
            .iter()
            .map(|t| {
                let r = crate::eval::records::parse_records_of::<M3>(t).unwrap().remove(0);
                let mut pos = r.start.clone();
                let moves = r.moves[..r.opening_plies]
                    .iter()
                    .map(|&m| {
                        let t = pos.move_text(m);
                        pos.make(m);
                        t
                    })
                    .collect();
                let (ruleset, flags) = M3::tags(&r.start);
                job::JobGame {
                    white: player(&r.white),
                    black: player(&r.black),
                    ruleset: ruleset.into(),
                    flags,
                    start: r.start.to_text(),
                    moves,
                    max_plies: Some(16),
                    tc: None,
                    event: r.event.clone(),
                    tags: r.tags.clone(),
                    live: false,
                    adjudicate_material: Some(3.0),
                }
            })
            .collect();
        job::Job { id: result.id.clone(), game: "mixed3d".into(), games }
    };
    let mut judged = None;
    for o in c.remote().list("results/").unwrap() {
        let (bytes, _) = c.remote().get(&o.name).unwrap().unwrap();
        let result: job::JobResult = serde_json::from_slice(&bytes).unwrap();
        let job = rebuild(&result);
        job::check_result::<M3>(&job, &result).expect("the worker's own result passes");
        if let Some(k) = result.records.iter().position(|t| t.contains("adjudication/material")) {
            judged = Some((job, result, k));
        }
    }
    let (job, result, k) = judged.expect("a pair with a verdict by material");
    let mut unjudged = job.clone();
    unjudged.games[k].adjudicate_material = None;
    let e = job::check_result::<M3>(&unjudged, &result).unwrap_err();
    assert!(e.contains("adjudicated by material though its job is not"), "{e}");
    let mut wider = job.clone();
    wider.games[k].adjudicate_material = Some(60.0);
    let e = job::check_result::<M3>(&wider, &result).unwrap_err();
    assert!(e.contains("where the material judge says a draw at the cap"), "{e}");
    let mut longer = job.clone();
    longer.games[k].max_plies = Some(40);
    let e = job::check_result::<M3>(&longer, &result).unwrap_err();
    assert!(e.contains("before the cap"), "{e}");
    // Tampered records: the win called a draw at the cap, and a draw the judge would have won.
    let tampered = |from: &[&str], to: &[&str]| {
        let mut r = result.clone();
        for (a, b) in from.iter().zip(to) {
            r.records[k] = r.records[k].replace(a, b);
        }
        job::check_result::<M3>(&job, &r).unwrap_err()
    };
    let e = tampered(&["adjudication/material"], &["adjudication/ply-cap"]);
    assert!(e.contains("a win recorded as a draw at the cap"), "{e}");
    let e = tampered(
        &["adjudication/material", "[Result \"1-0\"]", "[Result \"0-1\"]", " 1-0\n", " 0-1\n"],
        &["adjudication/ply-cap", "[Result \"1/2-1/2\"]", "[Result \"1/2-1/2\"]", " 1/2-1/2\n", " 1/2-1/2\n"],
    );
    assert!(e.contains("recorded a draw at the cap where the material judge says"), "{e}");
    let e = tampered(&["adjudication/material"], &["adjudication/tablebase"]);
    assert!(e.contains("endgame tables, which workers do not have"), "{e}");
}
