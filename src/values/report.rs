//! The result table of a run: terminal text, JSON, CSV and a bar plot with error bars.

use super::imbalance::{Estimate, ImbalanceReport};
use super::regression::{PhaseRegression, RegressionReport};
use super::ValuesError;
use crate::rules::Kind;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One iteration of the measure → feed back loop.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IterationSummary {
    /// Iteration number, from 0.
    pub iteration: usize,
    /// Engine spec the games were played with.
    pub engine: String,
    /// Values fed back (pawns), by kind key.
    pub values: Vec<(String, f64)>,
    /// Largest change from the previous iteration's values (pawns); `None` for the first.
    pub max_change: Option<f64>,
    /// Games played in this iteration (not counting resumed ones).
    pub games_played: usize,
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Kind key (`knight`, `silver`, `runicorn`, `commoner`).
    pub kind: String,
    /// The values layer's kind the row is of.
    #[serde(skip)]
    pub values_kind: Kind,
    /// Letter in the ruleset.
    pub letter: char,
    /// The prior guess in pawns (Aikin's table for Five Up, the project's working estimate for Raumschach).
    pub guess: f64,
    /// Imbalance-method value.
    pub imbalance: Option<Estimate>,
    /// Games of its match.
    pub imbalance_games: usize,
    /// Regression value.
    pub regression: Option<Estimate>,
    /// With a target half-width: the games the imbalance matches of this piece would need to reach
    /// it (`None`: reached, or no target).
    pub imbalance_games_needed: Option<usize>,
    /// The same for the regression (games in all).
    pub regression_games_needed: Option<usize>,
    /// Texel-style regression value (same games as the regression).
    pub texel: Option<Estimate>,
    /// The same as `regression_games_needed` for the Texel-style regression.
    pub texel_games_needed: Option<usize>,
}

/// What "A" means in the progress and the report.
pub const SIDE_A: &str = "side A lacks the pieces before the '/' (in Q/PPP, A has no queen, B three pawns fewer) \
                          and plays white in one game of each pair, black in the other";

/// The three methods' names, in the order of [`Row::estimates`].
pub const METHODS: [&str; 3] = ["imbalance", "regression", "texel"];

impl Row {
    /// The estimates of the three methods, in the order of [`METHODS`].
    pub fn estimates(&self) -> [Option<Estimate>; 3] {
        [self.imbalance, self.regression, self.texel]
    }
}

/// The full report of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValuesReport {
    /// Ruleset name.
    pub ruleset: String,
    /// Where the guess column comes from.
    pub guess_source: String,
    /// Engine spec of the last iteration.
    pub engine: String,
    /// The table.
    pub rows: Vec<Row>,
    /// Imbalance details (last iteration).
    pub imbalance: Option<ImbalanceReport>,
    /// Why the imbalance method gave nothing, if it did not.
    pub imbalance_error: Option<String>,
    /// Regression details (last iteration).
    pub regression: Option<RegressionReport>,
    /// Why the regression gave nothing, if it did not.
    pub regression_error: Option<String>,
    /// Texel-style regression details (last iteration).
    pub texel: Option<RegressionReport>,
    /// Why the Texel-style regression gave nothing, if it did not.
    pub texel_error: Option<String>,
    /// The material regression per phase of the game (last iteration; empty without the
    /// regression).
    pub phases: Vec<PhaseRegression>,
    /// The iterations.
    pub iterations: Vec<IterationSummary>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

fn cell(e: &Option<Estimate>) -> (String, String) {
    match e {
        Some(e) if e.lo95.is_finite() => {
            (format!("{:.2} ± {:.2}", e.value, 1.96 * e.se), format!("[{:.2}, {:.2}]", e.lo95, e.hi95))
        }
        Some(e) => (format!("{:.2}", e.value), "n/a".into()),
        None => ("-".into(), "".into()),
    }
}

impl ValuesReport {
    /// The terminal table (and the details below it).
    pub fn table(&self) -> String {
        let mut s = String::new();
        self.write_rows(&mut s);
        if let Some(w) = self.too_few_games() {
            let _ = writeln!(s, "{w}");
        }
        self.write_imbalance(&mut s);
        self.write_regressions(&mut s);
        self.write_needs_and_iterations(&mut s);
        let _ = writeln!(s, "time: {:.1} s", self.seconds);
        s
    }

    /// A warning when the figures cannot be read as values: a value below zero, or an interval
    /// that could not be computed or spans more than the value itself on both sides (`None`:
    /// the figures hold).
    pub fn too_few_games(&self) -> Option<String> {
        let mut bad: Vec<String> = Vec::new();
        for r in &self.rows {
            for (method, e) in METHODS.iter().zip(r.estimates()) {
                let Some(e) = e else { continue };
                let why = if !e.value.is_finite() {
                    "no value"
                } else if e.value < 0.0 {
                    "a negative value"
                } else if !(e.se.is_finite() && e.lo95.is_finite() && e.hi95.is_finite()) {
                    "no interval"
                } else {
                    continue;
                };
                bad.push(format!("{} ({method}: {why})", r.kind));
            }
        }
        (!bad.is_empty()).then(|| {
            format!(
                "warning: too few games for these figures: {}; they are not piece values yet (play more with \
                 --pairs, or --target for sequential allocation)",
                bad.join(", ")
            )
        })
    }

    /// The heading and one line per piece.
    fn write_rows(&self, s: &mut String) {
        let _ = writeln!(s, "piece values, {} (pawn = 1; guess: {})", self.ruleset, self.guess_source);
        let _ = writeln!(s, "engine: {}", self.engine);
        let _ = writeln!(
            s,
            "{:<16} {:>6}  {:>14} {:>16} {:>6}  {:>14} {:>16}  {:>14} {:>16}",
            "piece",
            "guess",
            "imbalance",
            "95% (bootstrap)",
            "games",
            "regression",
            "95% (bootstrap)",
            "texel",
            "95% (bootstrap)"
        );
        for r in &self.rows {
            let (iv, ii) = cell(&r.imbalance);
            let (rv, ri) = cell(&r.regression);
            let (tv, ti) = cell(&r.texel);
            let games = if r.imbalance.is_some() { r.imbalance_games.to_string() } else { "-".into() };
            let _ = writeln!(
                s,
                "{:<16} {:>6.2}  {:>14} {:>16} {:>6}  {:>14} {:>16}  {:>14} {:>16}",
                r.kind, r.guess, iv, ii, games, rv, ri, tv, ti
            );
        }
    }

    /// The imbalance fit: its parameters, every match and every exchange (or why there are none).
    fn write_imbalance(&self, s: &mut String) {
        if let Some(im) = &self.imbalance {
            let _ = writeln!(
                s,
                "imbalance: beta = {:.3} ± {:.3} [{:.3}, {:.3}] logit per pawn (joint fit; {} calibration games); \
                 fit chi2 {:.1} on {} dof; {} bootstrap replicates ({} failed)",
                im.beta,
                1.96 * im.beta_se,
                im.beta_lo95,
                im.beta_hi95,
                im.calibration_games,
                im.chi2,
                im.dof,
                im.bootstrap,
                im.bootstrap_failed
            );
            let _ = writeln!(s, "  ({})", SIDE_A);
            for st in &im.stats {
                let implied = st.implied.map_or(String::new(), |v| format!("  alone implies {v:.2}"));
                let _ = writeln!(
                    s,
                    "  {:<12} {:>5} pairs  A scores {:.3} ± {:.3}{implied}",
                    st.imbalance,
                    st.pairs,
                    st.score,
                    1.96 * st.score_se
                );
            }
            for ex in &im.exchanges {
                let (v, i) = cell(&Some(ex.estimate));
                let _ = writeln!(s, "  exchange {}: value difference {} {} ({} games)", ex.imbalance, v, i, ex.games);
            }
        }
        if let Some(e) = &self.imbalance_error {
            let _ = writeln!(s, "imbalance: no values: {e}");
        }
    }

    /// The regressions: material, Texel and by phase (or why there are none).
    fn write_regressions(&self, s: &mut String) {
        if let Some(r) = &self.regression {
            let _ = writeln!(
                s,
                "regression: {} quiet positions from {} games; intercept {:.3}; {} bootstrap replicates ({} failed){}",
                r.positions,
                r.games,
                r.intercept,
                r.bootstrap,
                r.bootstrap_failed,
                if r.dropped.is_empty() { String::new() } else { format!("; no variation: {}", r.dropped.join(", ")) }
            );
        }
        if let Some(e) = &self.regression_error {
            let _ = writeln!(s, "regression: no values: {e}");
        }
        if let Some(r) = &self.texel {
            let weights: Vec<String> = r
                .values
                .iter()
                .filter_map(|v| Some(format!("{}={:.2}+{:.2}", self.letter(v.kind), v.weight?, v.bonus?)))
                .collect();
            let _ = writeln!(
                s,
                "texel: logit {:.3} per evaluation pawn of position; tuned weight+mean bonus (evaluation pawns): {}; \
                 {} bootstrap replicates ({} failed)",
                r.positional_coefficient.unwrap_or(f64::NAN),
                weights.join(" "),
                r.bootstrap,
                r.bootstrap_failed
            );
        }
        if let Some(e) = &self.texel_error {
            let _ = writeln!(s, "texel: no values: {e}");
        }
        for p in &self.phases {
            let plies = match p.to_ply {
                Some(to) => format!("plies {}-{}", p.from_ply, to - 1),
                None => format!("plies {}-", p.from_ply),
            };
            match (&p.report, &p.error) {
                (Some(r), _) => {
                    let vals: Vec<String> = r
                        .values
                        .iter()
                        .filter(|v| v.kind != Kind::Pawn)
                        .map(|v| {
                            format!(
                                "{}={:.2} [{:.2}, {:.2}]",
                                self.letter(v.kind),
                                v.estimate.value,
                                v.estimate.lo95,
                                v.estimate.hi95
                            )
                        })
                        .collect();
                    let _ = writeln!(s, "regression, {plies} ({} positions): {}", r.positions, vals.join(" "));
                }
                (None, e) => {
                    let _ = writeln!(s, "regression, {plies}: no values: {}", e.as_deref().unwrap_or("-"));
                }
            }
        }
    }

    /// The games each wide interval would need, then what every iteration fed back.
    fn write_needs_and_iterations(&self, s: &mut String) {
        for r in &self.rows {
            for (method, n) in [
                ("imbalance", r.imbalance_games_needed),
                ("regression", r.regression_games_needed),
                ("texel", r.texel_games_needed),
            ] {
                if let Some(n) = n {
                    let _ = writeln!(
                        s,
                        "{}: {method} interval wider than the target; about {n} games would reach it",
                        r.kind
                    );
                }
            }
        }
        for it in &self.iterations {
            let change = it.max_change.map_or("-".into(), |c| format!("{c:.3}"));
            let vals: Vec<String> = it.values.iter().map(|(k, v)| format!("{k}={v:.2}")).collect();
            let _ = writeln!(
                s,
                "iteration {}: {} games, max change {change}, fed back: {}",
                it.iteration,
                it.games_played,
                vals.join(" ")
            );
        }
    }

    /// The table as CSV (one row per kind).
    pub fn csv(&self) -> String {
        let mut s = String::from("ruleset,piece,guess,imbalance,imbalance_se,imbalance_lo95,imbalance_hi95,imbalance_games,regression,regression_se,regression_lo95,regression_hi95,regression_positions,regression_games,texel,texel_se,texel_lo95,texel_hi95\n");
        let f = |e: &Option<Estimate>| match e {
            Some(e) => format!("{:.4},{:.4},{:.4},{:.4}", e.value, e.se, e.lo95, e.hi95),
            None => ",,,".into(),
        };
        let (rp, rg) = self.regression.as_ref().map_or((0, 0), |r| (r.positions, r.games));
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{},{},{:.2},{},{},{},{},{},{}",
                self.ruleset,
                r.kind,
                r.guess,
                f(&r.imbalance),
                if r.imbalance.is_some() { r.imbalance_games.to_string() } else { String::new() },
                f(&r.regression),
                if r.regression.is_some() { rp.to_string() } else { String::new() },
                if r.regression.is_some() { rg.to_string() } else { String::new() },
                f(&r.texel),
            );
        }
        s
    }

    /// A kind's letter as the table shows it (the game's own, e.g. Mixed 3D's commoner `C`).
    fn letter(&self, kind: Kind) -> char {
        self.rows.iter().find(|r| r.values_kind == kind).map_or(kind.letter(), |r| r.letter)
    }

    /// The report as pretty JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("report serialises")
    }

    /// The values alone, per method and piece, `[value, lo95, hi95]` in pawns (bootstrap
    /// intervals): `{"imbalance": {"knight": [3.1, 2.8, 3.4], …}, "regression": {…}, "texel": {…}}`,
    /// then the phase split of the regression (`"regression-plies-0-19"`, `"regression-plies-20-59"`,
    /// `"regression-plies-60-"`).
    /// Pieces by their common names (`unicorn` for either ruleset's unicorn, `silver` for the
    /// silver unicorn); the pawn, the unit, is left out; so is a method that gave no values.
    /// `docs/piece-values.json` is this file of each ruleset under the ruleset's name.
    pub fn summary_json(&self) -> String {
        let round = |x: f64| {
            if x.is_finite() {
                serde_json::json!((x * 1000.0).round() / 1000.0)
            } else {
                serde_json::Value::Null
            }
        };
        let mut methods = serde_json::Map::new();
        for (m, name) in METHODS.into_iter().enumerate() {
            let mut pieces = serde_json::Map::new();
            for r in self.rows.iter().filter(|r| r.kind != "pawn") {
                if let Some(e) = r.estimates()[m].filter(|e| e.value.is_finite()) {
                    let name = if r.kind == "runicorn" { "unicorn" } else { r.kind.as_str() };
                    pieces.insert(name.to_string(), serde_json::json!([round(e.value), round(e.lo95), round(e.hi95)]));
                }
            }
            if !pieces.is_empty() {
                methods.insert(name.to_string(), serde_json::Value::Object(pieces));
            }
        }
        // The phase split, as `regression-plies-0-19`, `regression-plies-20-59`, `regression-plies-60-`.
        for p in &self.phases {
            let Some(r) = &p.report else { continue };
            let mut pieces = serde_json::Map::new();
            for v in r.values.iter().filter(|v| v.kind != Kind::Pawn && v.estimate.value.is_finite()) {
                let key = self
                    .rows
                    .iter()
                    .find(|r| r.values_kind == v.kind)
                    .map_or_else(|| crate::engine::weights::kind_key(v.kind).to_string(), |r| r.kind.clone());
                let name = if key == "runicorn" { "unicorn" } else { key.as_str() };
                let e = v.estimate;
                pieces.insert(name.to_string(), serde_json::json!([round(e.value), round(e.lo95), round(e.hi95)]));
            }
            let to = p.to_ply.map_or(String::new(), |t| (t - 1).to_string());
            methods.insert(format!("regression-plies-{}-{to}", p.from_ply), serde_json::Value::Object(pieces));
        }
        serde_json::to_string_pretty(&methods).expect("summary serialises")
    }

    /// Writes `values.txt`, `values.json`, `values.csv`, `values-summary.json` and `values.png`
    /// into `dir`. The plot's
    /// text uses the embedded font ([`crate::eval::plot::register_font`]); if the plot cannot be
    /// drawn it is skipped and the error returned.
    pub fn write(&self, dir: &Path) -> std::io::Result<Option<String>> {
        std::fs::create_dir_all(dir)?;
        crate::fsutil::write_atomic(&dir.join("values.txt"), self.table().as_bytes())?;
        crate::fsutil::write_atomic(&dir.join("values.json"), self.json().as_bytes())?;
        crate::fsutil::write_atomic(&dir.join("values.csv"), self.csv().as_bytes())?;
        crate::fsutil::write_atomic(&dir.join("values-summary.json"), self.summary_json().as_bytes())?;
        Ok(self.plot(&dir.join("values.png")).err().map(|e| e.to_string()))
    }

    /// A bar plot: per piece, a bar per method with its 95% interval, and the guess as a marker.
    /// Drawn into a temporary file, then renamed ([`crate::fsutil::write_atomic_via`]).
    pub fn plot(&self, path: &Path) -> Result<(), ValuesError> {
        crate::fsutil::write_atomic_via(
            path,
            |tmp| self.draw_plot(tmp),
            |e| ValuesError::Io(path.display().to_string(), e),
        )
    }

    /// [`Self::plot`] into `path` itself.
    fn draw_plot(&self, path: &Path) -> Result<(), ValuesError> {
        use plotters::prelude::*;
        if !crate::eval::plot::register_font() {
            return Err(ValuesError::Font);
        }
        let err = |e: &dyn std::fmt::Display| ValuesError::Plot(e.to_string());
        let root = BitMapBackend::new(path, (1100, 620)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let top = self
            .rows
            .iter()
            .flat_map(|r| r.estimates().into_iter().map(|e| e.map(|e| e.hi95)).chain([Some(r.guess)]))
            .flatten()
            .filter(|v| v.is_finite())
            .fold(1.0f64, f64::max)
            .min(30.0)
            * 1.1;
        let bottom = self
            .rows
            .iter()
            .flat_map(|r| r.estimates().map(|e| e.map(|e| e.lo95)))
            .flatten()
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::min)
            .max(-10.0);
        let n = self.rows.len();
        // Every drawn value inside the axes (a tiny run's estimates may be far off or infinite,
        // which the pixel mapping cannot take).
        let fit = move |v: f64| if v.is_nan() { 0.0 } else { v.clamp(bottom, top) };
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Piece values, {} (pawn = 1), 95% intervals", self.ruleset), ("sans-serif", 24))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(0f64..n as f64, bottom..top)
            .map_err(|e| err(&e))?;
        let rows = self.rows.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 0.01 && i >= 0.0 && (i as usize) < rows.len() {
                    rows[i as usize].kind.clone()
                } else {
                    String::new()
                }
            })
            .y_desc("pawns")
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(|e| err(&e))?;
        let colours = [RGBColor(70, 120, 200), RGBColor(230, 140, 40), RGBColor(90, 170, 90)];
        let names = ["imbalance matches", "outcome regression", "Texel-style regression"];
        let pick = |m: usize, r: &Row| r.estimates()[m];
        // Only the methods that gave something get a bar slot.
        let shown: Vec<usize> = (0..3).filter(|&m| self.rows.iter().any(|r| pick(m, r).is_some())).collect();
        let width = 0.8 / shown.len().max(1) as f64;
        for (slot, &m) in shown.iter().enumerate() {
            let colour = colours[m];
            let bars: Vec<(usize, Estimate)> =
                self.rows.iter().enumerate().filter_map(|(i, r)| pick(m, r).map(|e| (i, e))).collect();
            let x0 = move |i: usize| i as f64 + 0.1 + width * slot as f64;
            chart
                .draw_series(bars.iter().map(|&(i, e)| {
                    Rectangle::new([(x0(i), fit(0.0)), (x0(i) + 0.95 * width, fit(e.value))], colour.filled())
                }))
                .map_err(|e| err(&e))?
                .label(names[m])
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
            chart
                .draw_series(bars.iter().filter(|(_, e)| e.lo95.is_finite()).map(|&(i, e)| {
                    let xc = x0(i) + 0.475 * width;
                    ErrorBar::new_vertical(xc, fit(e.lo95), fit(e.value), fit(e.hi95), BLACK.stroke_width(2), 10)
                }))
                .map_err(|e| err(&e))?;
        }
        chart
            .draw_series(self.rows.iter().enumerate().map(|(i, r)| {
                PathElement::new(
                    vec![(i as f64 + 0.06, fit(r.guess)), (i as f64 + 0.94, fit(r.guess))],
                    RED.stroke_width(3),
                )
            }))
            .map_err(|e| err(&e))?
            .label(format!("guess: {}", self.guess_source))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], RED.stroke_width(3)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plot_draws_with_the_embedded_font() {
        let row = |kind: &str, letter, guess| Row {
            kind: kind.into(),
            values_kind: crate::rules::Ruleset::FiveUp.kind_from_letter(letter).unwrap_or(Kind::Pawn),
            letter,
            guess,
            imbalance: None,
            imbalance_games: 0,
            regression: None,
            imbalance_games_needed: None,
            regression_games_needed: None,
            texel: Some(Estimate { value: guess - 0.5, se: 0.2, lo95: guess - 0.9, hi95: guess - 0.1 }),
            texel_games_needed: None,
        };
        let value = |kind, value: f64| crate::values::regression::RegressionValue {
            kind,
            estimate: Estimate { value, se: 0.15, lo95: value - 0.3, hi95: value + 0.3 },
            coefficient: 0.3 * value,
            weight: None,
            bonus: None,
        };
        // A phase of the regression (pieces by common name: the Raumschach unicorn is `unicorn`).
        let late = RegressionReport {
            values: vec![value(Kind::Pawn, 1.0), value(Kind::RUnicorn, 1.5)],
            dropped: Vec::new(),
            intercept: 0.0,
            positions: 100,
            games: 10,
            bootstrap: 100,
            bootstrap_failed: 0,
            positional_coefficient: None,
        };
        let report = ValuesReport {
            ruleset: "fiveup".into(),
            guess_source: crate::values::guess_source(crate::rules::Ruleset::FiveUp).into(),
            engine: "ab:depth=1".into(),
            rows: vec![row("knight", 'N', 3.0), row("rook", 'R', 5.0)],
            imbalance: None,
            imbalance_error: None,
            regression: None,
            regression_error: None,
            texel: None,
            texel_error: None,
            phases: vec![PhaseRegression { from_ply: 60, to_ply: None, report: Some(late), error: None }],
            iterations: vec![],
            seconds: 0.0,
        };
        let summary: serde_json::Value = serde_json::from_str(&report.summary_json()).unwrap();
        assert_eq!(
            summary,
            serde_json::json!({
                "texel": {"knight": [2.5, 2.1, 2.9], "rook": [4.5, 4.1, 4.9]},
                "regression-plies-60-": {"unicorn": [1.5, 1.2, 1.8]}
            })
        );
        assert!(
            report.table().contains("regression, plies 60- (100 positions): U=1.50 [1.20, 1.80]"),
            "{}",
            report.table()
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("values.png");
        report.plot(&path).unwrap();
        let png = std::fs::read(&path).unwrap();
        assert!(png.starts_with(b"\x89PNG") && png.len() > 1000, "{} bytes", png.len());
        // Sound figures carry no warning; a negative value or a missing interval does.
        assert!(report.too_few_games().is_none() && !report.table().contains("warning"));
        let mut thin = report.clone();
        thin.rows[0].texel = Some(Estimate { value: -0.4, se: 2.0, lo95: -4.0, hi95: 3.0 });
        thin.rows[1].imbalance = Some(Estimate { value: 4.0, se: f64::NAN, lo95: f64::NAN, hi95: f64::NAN });
        let w = thin.too_few_games().unwrap();
        assert!(w.contains("knight (texel: a negative value), rook (imbalance: no interval)"), "{w}");
        assert!(thin.table().contains(&w));
        // A tiny run's wild estimates still plot (inside the axes).
        let mut wild = report.clone();
        wild.rows[0].texel = Some(Estimate { value: 1e12, se: 1e12, lo95: f64::NEG_INFINITY, hi95: f64::INFINITY });
        wild.rows[1].regression = Some(Estimate { value: -1e9, se: 1.0, lo95: -2e9, hi95: 3e9 });
        wild.plot(&path).unwrap();
    }
}
