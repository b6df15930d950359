//! `fiveup tablebase generate|probe|info`: building the endgame tables of the 5x5x5 games,
//! asking them about a position, and listing what a folder holds.

use super::common::{threads_flag, PositionArgs, RulesetArg};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use fiveup::game::State;
use fiveup::tablebase::file::{self, SideStats};
use fiveup::tablebase::{build, sample, BuildReport, Dtm, Family, Material, Tablebases, Wanted, MAX_MEN};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// The folder tables are written to and read from unless `--dir` says otherwise.
pub const DEFAULT_DIR: &str = "tablebases";

/// `fiveup tablebase …`.
#[derive(Subcommand, Debug)]
pub enum TablebaseCommand {
    /// Build endgame tables (distance to mate for every position of a pawnless material) by
    /// retrograde analysis, with the smaller tables they need, each verified against the rules
    /// core before it is written. Tables already in the folder are kept: rerun to resume.
    Generate(GenerateArgs),
    /// The tables' value of a position and of each of its legal moves.
    Probe(ProbeArgs),
    /// The tables of a folder with their figures (won, drawn and lost shares, the longest mate).
    Info(InfoArgs),
    /// Random positions of a table with a given value, one position text a line (with its value
    /// after `#`): test positions for engines, or an openings file for `match --openings`.
    Sample(SampleArgs),
}

/// `fiveup tablebase sample`.
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// Rule set: fiveup (its positions are written for fiveup) or raumschach.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// The table, e.g. KRRvK.
    #[arg(long, value_name = "MATERIAL")]
    pub material: String,
    /// The value for the side to move: win, draw or loss.
    #[arg(long, value_name = "VALUE", default_value = "win")]
    pub value: String,
    /// The shortest distance to mate in plies (wins and losses).
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    pub min_plies: u16,
    /// How many positions, 1..=100000.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub count: usize,
    /// Random seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The tablebase folder.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}

/// `fiveup tablebase generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Rule set: fiveup (its tables serve fiveup-2001 too) or raumschach.
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Materials to build, e.g. KRRvK or KQvKR (repeat the flag or separate by commas).
    #[arg(long, value_name = "MATERIAL", value_delimiter = ',')]
    pub material: Vec<String>,
    /// Build every pawnless material of this many men (3 or 4, kings included).
    #[arg(long, value_name = "N")]
    pub men: Option<usize>,
    /// The tablebase folder (made if missing; its parent must exist).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `fiveup tablebase probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
    /// The tablebase folder.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}

/// `fiveup tablebase info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The tablebase folder.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Print the figures as JSON lines instead of a table.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print a Markdown table: verdict (won, drawn, mixed), shares, longest mate, size, time.
    #[arg(long)]
    pub markdown: bool,
}

/// Set by Ctrl-C: the table being built is dropped, the finished ones stay.
static STOP: AtomicBool = AtomicBool::new(false);

fn family_of(r: &RulesetArg) -> Result<Family> {
    let ruleset = r.five_up("tablebase")?;
    Ok(Family::of(ruleset))
}

/// The materials `generate` is asked for.
fn wanted(a: &GenerateArgs, family: Family) -> Result<Vec<Material>> {
    let mut out = Vec::new();
    for text in &a.material {
        out.push(Material::parse(family, text).with_context(|| "--material".to_string())?);
    }
    if let Some(n) = a.men {
        if !(3..=MAX_MEN).contains(&n) {
            bail!("--men {n}: tables hold 3 to {MAX_MEN} men (kings included)");
        }
        out.extend(Material::all_of(family, n));
    }
    if out.is_empty() {
        bail!("name the tables to build: --material KRRvK (one or more) or --men 3|4");
    }
    Ok(out)
}

/// A share in percent: one decimal, or three below 1% (a handful of won positions shows).
fn percent(part: u64, all: u64) -> String {
    if all == 0 {
        return "-".into();
    }
    let p = 100.0 * part as f64 / all as f64;
    if p > 0.0 && p < 1.0 {
        format!("{p:.3}%")
    } else {
        format!("{p:.1}%")
    }
}

fn side_line(s: &SideStats) -> String {
    format!(
        "won {} drawn {} lost {}, longest win {} plies",
        percent(s.wins, s.total()),
        percent(s.draws, s.total()),
        percent(s.losses, s.total()),
        s.longest_win
    )
}

/// A table's size, build time and figures for each side to move.
fn figures(bytes: u64, stats: &file::Stats) -> String {
    format!(
        "{:>7.1} MB {:>8.1} s  white to move: {}; black to move: {}",
        bytes as f64 / 1e6,
        stats.seconds,
        side_line(&stats.white),
        side_line(&stats.black)
    )
}

fn report_line(r: &BuildReport) -> String {
    let what = if r.built { "built" } else { "kept " };
    format!("{:<8} {what} {}", r.material.to_string(), figures(r.bytes, &r.stats))
}

/// Builds the tables asked for.
pub fn run_generate(a: &GenerateArgs, out: &mut dyn Write) -> Result<()> {
    let family = family_of(&a.ruleset)?;
    let wanted = wanted(a, family)?;
    let threads = threads_flag(a.threads)?;
    if a.dir.exists() && !a.dir.is_dir() {
        bail!("--dir {}: exists and is not a folder", a.dir.display());
    }
    let installed = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            super::common::exit_at_once(130);
        }
        eprintln!(
            "\nstopping: the table being built is dropped, the finished ones are kept (Ctrl-C again to quit now)"
        );
    });
    if let Err(e) = installed {
        tracing::warn!("no Ctrl-C handler ({e})");
    }
    // This command's only pool; a second one (a test calling twice) keeps the first.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
    let result = build(&a.dir, &wanted, true, &STOP, |r| {
        let _ = writeln!(out, "{}", report_line(r));
        let _ = out.flush();
    });
    match result {
        Ok(reports) => {
            let built = reports.iter().filter(|r| r.built).count();
            writeln!(out, "{} tables in {} ({built} built now)", reports.len(), a.dir.join(family.name()).display())?;
            Ok(())
        }
        Err(fiveup::tablebase::BuildError::Generate(fiveup::tablebase::generate::GenerateError::Stopped))
        | Err(fiveup::tablebase::BuildError::Verify(fiveup::tablebase::verify::VerifyError::Stopped)) => {
            out.flush()?;
            eprintln!("stopped; rerun the same command to resume");
            super::common::exit_at_once(130);
        }
        Err(e) => Err(e.into()),
    }
}

/// Opens a tablebase folder for a command, with the error naming the flag.
pub fn open(dir: &std::path::Path, flag: &str) -> Result<std::sync::Arc<Tablebases>> {
    Tablebases::open_shared(dir).with_context(|| format!("{flag} {}", dir.display()))
}

/// Prints a position's value and each move's.
pub fn run_probe(a: &ProbeArgs, out: &mut dyn Write) -> Result<()> {
    let pos = a.pos.position("tablebase probe")?;
    let tb = open(&a.dir, "--dir")?;
    let Some(v) = tb.probe(&pos) else {
        bail!("{}: no table holds this position (tables: {}; pawnless, at most {MAX_MEN} men, no reserve piece still to place, flat board without castling)", a.dir.display(), list(&tb));
    };
    let damaged = tb.damaged();
    if !damaged.is_empty() {
        bail!("{}", damaged.join("; "));
    }
    writeln!(out, "{}: {}", side_name(&pos), v.describe())?;
    let mut rows = Vec::new();
    for m in fiveup::game::legal_moves(&pos) {
        let child = pos.after(m);
        let value = tb.probe(&child).map(Dtm::parent);
        rows.push((value, pos.move_text(m)));
    }
    rows.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) if x.better_than(y) => std::cmp::Ordering::Less,
        (Some(x), Some(y)) if y.better_than(x) => std::cmp::Ordering::Greater,
        _ => a.1.cmp(&b.1),
    });
    for (value, text) in rows {
        let v = value.map_or_else(|| "not in the tables".to_string(), Dtm::describe);
        writeln!(out, "  {text:<12} {v}")?;
    }
    Ok(())
}

fn side_name(pos: &fiveup::rules::Position) -> &'static str {
    match pos.side() {
        fiveup::game::Color::White => "white to move",
        fiveup::game::Color::Black => "black to move",
    }
}

fn list(tb: &Tablebases) -> String {
    let v: Vec<String> = tb.materials().iter().map(|m| format!("{} {m}", m.family)).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Prints random positions of a table.
pub fn run_sample(a: &SampleArgs, out: &mut dyn Write) -> Result<()> {
    let family = family_of(&a.ruleset)?;
    let material = Material::parse(family, &a.material).context("--material")?;
    super::common::bound("--count", a.count, 1, 100_000)?;
    let wanted = match a.value.as_str() {
        "win" => Wanted::Win(a.min_plies),
        "loss" => Wanted::Loss(a.min_plies),
        "draw" => Wanted::Draw,
        v => bail!("--value {v}: expected win, draw or loss"),
    };
    let (canonical, flipped) = material.canonical();
    if flipped {
        bail!("--material {material}: tables are named stronger side first: {canonical}");
    }
    let tb = open(&a.dir, "--dir")?;
    let Some(table) = tb.table(&material) else {
        let damaged = tb.damaged();
        if !damaged.is_empty() {
            bail!("{}", damaged.join("; "));
        }
        bail!("--dir {}: no {family} table {material} (build it with `fiveup tablebase generate --ruleset {family} --material {material}`)", a.dir.display());
    };
    let found = sample(&table, wanted, a.count, a.seed);
    if found.is_empty() {
        bail!("{family} {material} has no position of that value");
    }
    for (pos, v) in &found {
        writeln!(out, "{}  # {}, {}", pos.to_text(), side_name(pos), v.describe())?;
    }
    if found.len() < a.count {
        eprintln!("warning: only {} positions of that value found", found.len());
    }
    Ok(())
}

/// Lists a folder's tables with their figures.
pub fn run_info(a: &InfoArgs, out: &mut dyn Write) -> Result<()> {
    let tb = Tablebases::open(&a.dir).with_context(|| format!("--dir {}", a.dir.display()))?;
    let materials = tb.materials();
    if materials.is_empty() {
        bail!("--dir {}: no tables (build some with `fiveup tablebase generate`)", a.dir.display());
    }
    if a.markdown {
        writeln!(
            out,
            "| game | material | verdict | won, white to move | drawn, white to move | lost, black to move | longest mate (moves) | file | built in |"
        )?;
        writeln!(out, "|---|---|---|---:|---:|---:|---:|---:|---:|")?;
    }
    for m in materials {
        let path = file::path_in(&a.dir, &m);
        let (_, h) = file::read(&path, Some(&m))?;
        let bytes = std::fs::metadata(&path).map(|x| x.len()).unwrap_or(0);
        if a.markdown {
            let (w, b) = (&h.stats.white, &h.stats.black);
            writeln!(
                out,
                "| {} | {m} | {} | {} | {} | {} | {} | {:.1} MB | {:.1} s |",
                m.family.name(),
                w.verdict(),
                percent(w.wins, w.total()),
                percent(w.draws, w.total()),
                percent(b.losses, b.total()),
                if w.wins == 0 { "-".to_string() } else { w.longest_win.div_ceil(2).to_string() },
                bytes as f64 / 1e6,
                h.stats.seconds
            )?;
        } else if a.json {
            let v = serde_json::json!({
                "family": m.family.name(), "material": m.to_string(), "men": m.men(),
                "bytes": bytes, "seconds": h.stats.seconds,
                "white_to_move": h.stats.white, "black_to_move": h.stats.black,
            });
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{:<10} {:<8} {}", m.family.name(), m.to_string(), figures(bytes, &h.stats))?;
        }
    }
    Ok(())
}
