//! Perft as data: `tests/perft.txt` holds counts for start positions and hand-made tricky
//! positions. The core is checked on every depth whose tree is cheap (node-limited); the naive
//! reference re-counts the smallest trees, and all of them in an ignored test.

use super::differential::TRICKY_FIVEUP;
use super::reference::RefPos;
use super::text;
use fiveup::game::perft;
use fiveup::rules::Position;

/// One line of the data file.
struct Entry {
    variant: String,
    position: String,
    counts: Vec<u64>,
}

fn entries() -> Vec<Entry> {
    let data = include_str!("../../perft.txt");
    data.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 3, "three fields in: {l}");
            let counts = f[2].split_whitespace().map(|n| n.parse().expect("a count")).collect();
            Entry { variant: f[0].to_string(), position: f[1].to_string(), counts }
        })
        .collect()
}

fn position(e: &Entry) -> Position {
    let v = text::variant(&e.variant);
    if e.position == "startpos" {
        Position::startpos(v)
    } else {
        Position::from_setup(text::parse(v, &e.position)).expect("valid position")
    }
}

/// Depths (from 1) whose tree makes at most `limit` moves (the count one ply up).
fn cheap_depths(e: &Entry, limit: u64) -> impl Iterator<Item = u32> + '_ {
    (1..=e.counts.len() as u32).filter(move |&d| d == 1 || e.counts[d as usize - 2] <= limit)
}

/// The core's perft equals every recorded count whose tree makes at most 20 000 moves.
#[test]
fn core_matches_perft_file() {
    let mut checked = 0;
    for e in entries() {
        let mut pos = position(&e);
        for d in cheap_depths(&e, 20_000) {
            assert_eq!(perft::perft(&mut pos, d), e.counts[d as usize - 1], "{} {} depth {d}", e.variant, e.position);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

/// Every recorded count, depth 4 included (slow: run in release, `cargo test --release --test integration
/// core_matches_perft_file_deep -- --ignored`; about 20 s).
#[test]
#[ignore]
fn core_matches_perft_file_deep() {
    for e in entries() {
        let pos = position(&e);
        for d in 1..=e.counts.len() as u32 {
            assert_eq!(
                perft::perft_parallel(&pos, d, 2),
                e.counts[d as usize - 1],
                "{} {} depth {d}",
                e.variant,
                e.position
            );
        }
    }
}

/// The reference re-counts the small trees (at most 300 interior nodes).
#[test]
fn reference_matches_perft_file_small() {
    for e in entries() {
        let r = RefPos::from_setup(&position(&e).to_setup());
        for d in cheap_depths(&e, 300) {
            assert_eq!(r.perft(d), e.counts[d as usize - 1], "{} {} depth {d}", e.variant, e.position);
        }
    }
}

/// The reference re-counts every tree of at most 70 000 interior nodes (slow: run in release,
/// `cargo test --release --test integration reference_matches_perft_file_full -- --ignored`).
#[test]
#[ignore]
fn reference_matches_perft_file_full() {
    for e in entries() {
        let r = RefPos::from_setup(&position(&e).to_setup());
        for d in cheap_depths(&e, 70_000) {
            let t = std::time::Instant::now();
            assert_eq!(r.perft(d), e.counts[d as usize - 1], "{} {} depth {d}", e.variant, e.position);
            println!("ok {} {} depth {d} ({:?})", e.variant, e.position, t.elapsed());
        }
    }
}

/// The hand-made positions of the random games are in the file.
#[test]
fn tricky_positions_are_recorded() {
    let e = entries();
    for t in TRICKY_FIVEUP {
        assert!(e.iter().any(|x| x.position == t), "{t} missing from tests/perft.txt");
    }
}

/// Prints counts for the file (used to write it): `cargo test --release --test integration
/// print_perft_counts -- --ignored --nocapture` with `PERFT_DEPTH` (default 3).
#[test]
#[ignore]
fn print_perft_counts() {
    let depth = std::env::var("PERFT_DEPTH").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    for e in entries() {
        let pos = position(&e);
        let counts: Vec<String> = (1..=depth).map(|d| perft::perft_parallel(&pos, d, 2).to_string()).collect();
        println!("{}; {}; {}", e.variant, e.position, counts.join(" "));
    }
}
